import { DEFAULT_PG_POOL_SIZE, dataSourceOptions } from './data-source-options';

describe('dataSourceOptions', () => {
  const pg = 'postgres://u:p@127.0.0.1:5432/db';

  it('gives PostgreSQL a pool of the size asked for, 20 when none is', () => {
    expect(DEFAULT_PG_POOL_SIZE).toBe(20);
    expect(dataSourceOptions(pg)).toMatchObject({ type: 'postgres', url: pg, extra: { max: 20 } });
    expect(dataSourceOptions(pg, true, [], 40)).toMatchObject({ type: 'postgres', extra: { max: 40 } });
  });

  it('has no pool on SQLite (one connection in process)', () => {
    const options = dataSourceOptions('sqlite::memory:', true, [], 40) as unknown as Record<string, unknown>;
    expect(options.type).toBe('better-sqlite3');
    expect(options.extra).toBeUndefined();
  });
});
