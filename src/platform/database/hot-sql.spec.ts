import { AbstractLogger, Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { setFastPaths } from '../config/fast-paths';
import { BigIntColumnOptions, JsonColumnOptions } from './columns';
import { HotSql, inlineParams } from './hot-sql';
import { insertRow } from './insert-row';

/**
 * Statements sent with a PostgreSQL COMMIT take their values as literals (the simple query protocol has no parameters).
 */
describe('inlineParams', () => {
  // As pg's Client#escapeLiteral: quotes doubled, and E'' with doubled backslashes when there are any.
  const client = {
    escapeLiteral: (value: string): string => {
      const quoted = `'${value.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`;
      return value.includes('\\') ? ` E${quoted}` : quoted;
    },
  };

  it('writes whole numbers, strings, booleans and null as literals, in placeholder order', () => {
    expect(
      inlineParams(
        'INSERT INTO "t" ("a", "b", "c", "d", "e") VALUES (?, ?, ?, ?, ?)',
        [42, "it's", null, true, false],
        client,
      ),
    ).toBe(`INSERT INTO "t" ("a", "b", "c", "d", "e") VALUES (42, 'it''s', NULL, TRUE, FALSE)`);
  });

  it('never reads a question mark inside a value as a placeholder', () => {
    expect(inlineParams('UPDATE "t" SET "a" = ? WHERE "id" = ?', ['why?', 'x'], client)).toBe(
      `UPDATE "t" SET "a" = 'why?' WHERE "id" = 'x'`,
    );
  });

  it.each([
    ['a fraction', 1.5],
    ['a number beyond 2^53', 2 ** 60],
    ['a Date', new Date(0)],
    ['a Buffer', Buffer.from('x')],
    ['undefined', undefined],
  ])('refuses %s rather than guess how to write it', (_what, value) => {
    expect(() => inlineParams('SELECT ?', [value], client)).toThrow(/whole numbers, strings, booleans and null only/);
  });

  it('refuses values that do not match the placeholders', () => {
    expect(() => inlineParams('SELECT ?, ?', [1, 2, 3], client)).toThrow(/3 values for 2 placeholders/);
    expect(() => inlineParams('SELECT ?, ?', [1], client)).toThrow();
  });
});

@Entity('hot_probe')
class HotProbe {
  @PrimaryColumn({ type: 'varchar', length: 64 }) id: string;
  @Column({ type: 'integer' }) count: number;
  @Column({ type: 'text', nullable: true }) note: string | null;
  @Column(BigIntColumnOptions({ nullable: true })) at: number | null;
  @Column(JsonColumnOptions({ nullable: true })) payload: Record<string, unknown> | null;
  @Column({ type: 'boolean', default: false }) flag: boolean;
}

@Entity('insert_probe')
class InsertProbe {
  @PrimaryColumn({ type: 'varchar', length: 64 }) id: string;
  @Column({ type: 'integer', default: 7 }) count: number;
}

/** TypeORM's query runners log every statement they send; HotSql's fast path sends past them. */
class CountingLogger extends AbstractLogger {
  statements: string[] = [];
  protected writeLog(): void {}
  override logQuery(query: string): void {
    this.statements.push(query);
  }
}

// Every statement kind in both modes of FAST_PATHS: the same rows and entities through HotSql's own
// statements and through TypeORM's public path.
describe.each([
  ['on', true],
  ['off', false],
])('HotSql on SQLite, fast paths %s', (_mode, on) => {
  let ds: DataSource;
  let hot: HotSql;
  const logger = new CountingLogger();

  beforeAll(async () => {
    setFastPaths(on);
    ds = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [HotProbe],
      synchronize: true,
      logger,
    });
    await ds.initialize();
    hot = HotSql.of(ds);
  });
  afterAll(async () => {
    setFastPaths(true);
    await ds.destroy();
  });

  it('inserts, reads, updates and claims rows with the same results', async () => {
    logger.statements = [];
    await hot.insert(undefined, HotProbe, {
      id: 'a',
      count: 1,
      note: null,
      at: 1_764_000_000_123,
      payload: { x: [1] },
    } as unknown as HotProbe);
    await hot.insert(undefined, HotProbe, { id: 'b', count: 2, note: 'n', at: null, payload: null, flag: true });
    const a = await hot.findOne(undefined, HotProbe, '"id" = ?', ['a']);
    expect(a).toBeInstanceOf(HotProbe);
    expect(a).toEqual({ id: 'a', count: 1, note: null, at: 1_764_000_000_123, payload: { x: [1] }, flag: false });
    expect(await hot.findOne(undefined, HotProbe, '"id" = ?', ['none'])).toBeNull();
    expect(
      await hot.update(undefined, HotProbe, { count: 5, note: undefined }, '"id" = ? AND "count" < ?', ['a', 3]),
    ).toBe(1);
    expect(await hot.update(undefined, HotProbe, { count: 6 }, '"id" = ? AND "count" < ?', ['a', 3])).toBe(0);
    const claimed = await hot.returning(
      undefined,
      HotProbe,
      'UPDATE "hot_probe" SET "count" = "count" + 1 WHERE "id" IN (?, ?)',
      ['b', 'a'],
    );
    expect(claimed.map((row) => [row.id, row.count]).sort()).toEqual([
      ['a', 6],
      ['b', 3],
    ]);
    expect(claimed.every((row) => row instanceof HotProbe)).toBe(true);
    expect(await hot.run(undefined, 'UPDATE "hot_probe" SET "note" = ? WHERE "count" > ?', ['m', 0])).toBe(2);
    expect(await hot.first(undefined, 'SELECT "note", "flag" FROM "hot_probe" WHERE "id" = ?', ['b'])).toEqual({
      note: 'm',
      flag: 1,
    });
    // Through TypeORM's query runners only when fast paths are off.
    if (on) expect(logger.statements).toEqual([]);
    else expect(logger.statements.length).toBeGreaterThanOrEqual(8);
  });

  it('inserts several rows of one entity in one statement', async () => {
    const rows = ['m1', 'm2', 'm3'].map((id, i) => ({
      id,
      count: i,
      note: null,
      at: i,
      payload: { i },
      flag: i === 1,
    }));
    await hot.insertManyAtCommit(undefined, HotProbe, rows);
    await hot.insertManyAtCommit(undefined, HotProbe, []);
    // SQLite's changes(): the rows written by the last INSERT, so 3 only when one statement wrote them all.
    expect(await hot.first(undefined, 'SELECT changes() AS "n"', [])).toEqual({ n: 3 });
    const read = await Promise.all(rows.map((row) => hot.findOne(undefined, HotProbe, '"id" = ?', [row.id])));
    expect(read).toEqual(rows);
  });

  it('holds statements for the COMMIT only when fast paths are on', async () => {
    const runner = ds.createQueryRunner();
    hot.deferToCommit(runner);
    await hot.runAtCommit(runner.manager, 'UPDATE "hot_probe" SET "count" = ? WHERE "id" = ?', [100, 'a']);
    const now = await hot.first(undefined, 'SELECT "count" FROM "hot_probe" WHERE "id" = ?', ['a']);
    expect(now).toEqual({ count: on ? 6 : 100 });
  });
});

describe.each([
  ['on', true, 1],
  ['off', false, 2],
])('insertRow, fast paths %s', (_mode, on, statements) => {
  it(`inserts the row with ${statements} statement(s), leaving the caller's object as it was`, async () => {
    setFastPaths(on);
    const logger = new CountingLogger();
    const ds = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [InsertProbe],
      synchronize: true,
      logger,
    });
    try {
      await ds.initialize();
      logger.statements = [];
      const values = { id: 'a' } as InsertProbe;
      await insertRow(ds.manager, InsertProbe, values);
      // TypeORM's insert reads the default it did not send back (a second statement); the fast path sends one.
      expect(logger.statements.filter((sql) => !/^(BEGIN|COMMIT)/.test(sql))).toHaveLength(statements);
      expect(values).toEqual({ id: 'a' });
      expect(await ds.manager.findOneBy(InsertProbe, { id: 'a' })).toEqual({ id: 'a', count: 7 });
    } finally {
      setFastPaths(true);
      await ds.destroy();
    }
  });
});
