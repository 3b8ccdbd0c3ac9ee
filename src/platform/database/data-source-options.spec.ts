import { MigrationInterface } from 'typeorm';
import { FAMILY_MIGRATIONS } from '../../families/family-entities';
import {
  CORE_MIGRATIONS,
  DEFAULT_PG_CONNECT_TIMEOUT_MS,
  DEFAULT_PG_POOL_SIZE,
  dataSourceOptions,
  migrationsInOrder,
} from './data-source-options';

describe('dataSourceOptions', () => {
  const pg = 'postgres://u:p@127.0.0.1:5432/db';

  it('gives PostgreSQL a pool of the size asked for, 20 when none is', () => {
    expect(DEFAULT_PG_POOL_SIZE).toBe(20);
    expect(dataSourceOptions(pg)).toMatchObject({ type: 'postgres', url: pg, extra: { max: 20 } });
    expect(dataSourceOptions(pg, true, [], { size: 40 })).toMatchObject({ type: 'postgres', extra: { max: 40 } });
  });

  it('bounds the wait for a PostgreSQL connection, 1.5 s when no other bound is asked for', () => {
    expect(DEFAULT_PG_CONNECT_TIMEOUT_MS).toBe(1500);
    expect(dataSourceOptions(pg)).toMatchObject({ extra: { connectionTimeoutMillis: 1500 } });
    expect(dataSourceOptions(pg, true, [], { connectTimeoutMs: 400 })).toMatchObject({
      extra: { max: 20, connectionTimeoutMillis: 400 },
    });
  });

  it('has no pool on SQLite (one connection in process)', () => {
    const options = dataSourceOptions('sqlite::memory:', true, [], { size: 40 }) as unknown as Record<string, unknown>;
    expect(options.type).toBe('better-sqlite3');
    expect(options.extra).toBeUndefined();
  });
});

describe('migrationsInOrder', () => {
  /** The core migrations stamped after `after` and before `before`, in their order. */
  const coreBetween = (after: number, before: number) =>
    CORE_MIGRATIONS.map((m) => m.name).filter((name) => {
      const stamp = Number(name.slice(-13));
      return stamp > after && stamp < before;
    });

  it('runs the core and family migrations in the order existing databases ran them (by timestamp)', () => {
    expect(migrationsInOrder([...CORE_MIGRATIONS, ...FAMILY_MIGRATIONS]).map((m) => m.name)).toEqual([
      'InitialSchema1763900000000',
      'ReconciliationIndexes1764000000000',
      'OneActionName1764100000000',
      'KlSessions1764200000000',
      'KlVoices1764300000000',
      'IdempotencyTask1764400000000',
      'LeanTaskIndexes1764500000000',
      'CallbackTokenIndex1764600000000',
      ...coreBetween(1764600000000, 1765050000000),
      'KlSessionLease1765050000000',
      ...coreBetween(1765050000000, Infinity),
    ]);
  });

  it('refuses a migration whose name does not end in its timestamp', () => {
    class Unstamped implements MigrationInterface {
      up = () => Promise.resolve();
      down = () => Promise.resolve();
    }
    expect(() => migrationsInOrder([Unstamped])).toThrow(/Unstamped does not end in a 13-digit timestamp/);
  });

  it('gives a data source the core migrations unless the caller adds the families’', () => {
    expect(dataSourceOptions('sqlite::memory:').migrations).toEqual(migrationsInOrder(CORE_MIGRATIONS));
    const all = dataSourceOptions('sqlite::memory:', true, [], { size: 1 }, [...FAMILY_MIGRATIONS, ...CORE_MIGRATIONS]);
    expect(all.migrations).toHaveLength(CORE_MIGRATIONS.length + FAMILY_MIGRATIONS.length);
  });
});
