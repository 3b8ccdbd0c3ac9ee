import { Pool, Client } from 'pg';
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import {
  hydratedValue,
  markCommitted,
  persistentValue,
  pgClientOf,
  pgPoolOf,
  sqliteConnectionOf,
  sqliteRunners,
  wrapQueries,
} from './typeorm-internals';

@Entity('internals_probe')
class InternalsProbe {
  @PrimaryColumn({ type: 'varchar', length: 64 }) id: string;
  @Column({ type: 'boolean' }) flag: boolean;
  @Column({ type: 'datetime', nullable: true }) seen: Date | null;
  @Column({ type: 'simple-json', nullable: true }) extra: unknown;
}

// Contract: what the gateway relies on in the installed TypeORM (and the drivers under it).
describe('TypeORM internals on SQLite', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [InternalsProbe],
      synchronize: true,
    });
    await ds.initialize();
  });
  afterAll(() => ds.destroy());

  it("driver.databaseConnection is better-sqlite3's Database, the connection TypeORM's own statements use", async () => {
    const db = sqliteConnectionOf(ds);
    await ds.manager.insert(InternalsProbe, { id: 'a', flag: true });
    expect(db.prepare('SELECT "id" FROM "internals_probe"').all()).toEqual([{ id: 'a' }]);
    expect(db.prepare('SELECT "id" FROM "internals_probe"').raw(true).get()).toEqual(['a']);
    expect(typeof db.pragma).toBe('function');
    const runner = ds.createQueryRunner();
    await runner.startTransaction();
    expect(db.inTransaction).toBe(true);
    await runner.rollbackTransaction();
    expect(db.inTransaction).toBe(false);
  });

  it('hands out one shared query runner, through whose query every repository call goes; another of its class shares the connection', async () => {
    const { shared, own } = sqliteRunners(ds);
    expect(ds.createQueryRunner()).toBe(shared);
    expect(own).not.toBe(shared);
    const seen: string[] = [];
    wrapQueries(shared, (sql, run) => {
      seen.push(sql);
      return run();
    });
    await ds.getRepository(InternalsProbe).findOneBy({ id: 'a' });
    expect(seen.some((sql) => sql.startsWith('SELECT'))).toBe(true);
    await own.startTransaction();
    expect(sqliteConnectionOf(ds).inTransaction).toBe(true);
    expect(await own.manager.findOneBy(InternalsProbe, { id: 'a' })).toMatchObject({ id: 'a' });
    await own.commitTransaction();
  });

  it("the driver's per-value conversions", () => {
    const column = (name: string) => ds.getMetadata(InternalsProbe).findColumnWithPropertyName(name)!;
    expect(hydratedValue(ds, 1, column('flag'))).toBe(true);
    expect(persistentValue(ds, true, column('flag'))).toBe(1);
    expect(hydratedValue(ds, '2026-11-24 09:05:07.042', column('seen'))).toEqual(new Date('2026-11-24T09:05:07.042Z'));
    expect(hydratedValue(ds, '{"x":1}', column('extra'))).toEqual({ x: 1 });
    expect(persistentValue(ds, { x: 1 }, column('extra'))).toBe('{"x":1}');
  });

  it("a query runner's transaction state is isTransactionActive and transactionDepth", async () => {
    const { own } = sqliteRunners(ds);
    await own.startTransaction();
    expect(own).toMatchObject({ isTransactionActive: true, transactionDepth: 1 });
    await own.query('COMMIT');
    markCommitted(own);
    expect(own).toMatchObject({ isTransactionActive: false, transactionDepth: 0 });
    // TypeORM takes it as committed: a new transaction starts at depth 1 again (BEGIN, not a savepoint).
    await own.startTransaction();
    expect(sqliteConnectionOf(ds).inTransaction).toBe(true);
    await own.commitTransaction();
    expect(sqliteConnectionOf(ds).inTransaction).toBe(false);
  });
});

// The PostgreSQL half runs where the tests run on PostgreSQL (DATABASE_URL).
const pgUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
if (pgUrl)
  describe('TypeORM internals on PostgreSQL', () => {
    let ds: DataSource;
    beforeAll(async () => {
      ds = new DataSource({ type: 'postgres', url: pgUrl });
      await ds.initialize();
    });
    afterAll(() => ds.destroy());

    it("driver.master is pg's Pool, and a connected query runner's databaseConnection its Client", async () => {
      const pool = pgPoolOf(ds);
      expect(pool).toBeInstanceOf(Pool);
      expect((await pool.query({ name: 'contract_1', text: 'SELECT $1::int AS n', values: [2] })).rows).toEqual([
        { n: 2 },
      ]);
      const runner = ds.createQueryRunner();
      expect(pgClientOf(runner)).toBeUndefined();
      await runner.connect();
      const client = pgClientOf(runner)!;
      expect(client).toBeInstanceOf(Client);
      expect(client.escapeLiteral("it's")).toBe("'it''s'");
      await runner.startTransaction();
      await client.query('COMMIT');
      markCommitted(runner);
      expect(runner.isTransactionActive).toBe(false);
      await runner.release();
      expect(pgClientOf(runner)).toBeUndefined();
    });
  });
