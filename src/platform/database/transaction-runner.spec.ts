import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { TransactionRunner } from './transaction-runner';

interface Sqlite {
  prepare(sql: string): { run(...params: unknown[]): unknown; get(...params: unknown[]): unknown; all(): unknown[] };
  exec(sql: string): void;
  inTransaction: boolean;
}

/** SQLite's group commit of `runAtomic`: the calls of one event-loop turn share a transaction, each in a savepoint. */
describe('TransactionRunner.runAtomic on SQLite (group commit)', () => {
  let ds: DataSource;
  let db: Sqlite;
  let runner: TransactionRunner;
  let dir: string;
  /** A second connection to the same file: it sees only what was committed. */
  let observer: Database.Database;
  const rows = () => (db.prepare('SELECT name FROM items ORDER BY name').all() as Array<{ name: string }>).map((r) => r.name);
  const insert = (name: string) => db.prepare('INSERT INTO items (name) VALUES (?)').run(name);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-group-commit-'));
    ds = new DataSource({ type: 'better-sqlite3', database: join(dir, 'db.sqlite') });
    await ds.initialize();
    db = (ds.driver as unknown as { databaseConnection: Sqlite }).databaseConnection;
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('CREATE TABLE parents (id TEXT PRIMARY KEY); CREATE TABLE items (name TEXT PRIMARY KEY, parent TEXT REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)');
    observer = new Database(join(dir, 'db.sqlite'), { readonly: true });
    runner = new TransactionRunner(ds);
  });
  afterEach(async () => {
    observer.close();
    await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  const committed = () => (observer.prepare('SELECT name FROM items ORDER BY name').all() as Array<{ name: string }>).map((r) => r.name);

  it('runs the calls of one turn in one transaction; a failing call is undone alone, the others commit', async () => {
    const seenInside: unknown[] = [];
    const a = runner.runAtomic(async () => {
      insert('a');
      return 'A';
    });
    const b = runner.runAtomic(async () => {
      insert('b');
      // The same transaction: a's row is there, and not committed yet.
      seenInside.push(db.inTransaction, db.prepare('SELECT count(*) AS n FROM items WHERE name = ?').get('a'), committed());
      throw new Error('b fails after its insert');
    });
    const c = runner.runAtomic(async () => {
      insert('c');
      return 'C';
    });
    await expect(a).resolves.toBe('A');
    await expect(b).rejects.toThrow('b fails after its insert');
    await expect(c).resolves.toBe('C');
    expect(seenInside).toEqual([true, { n: 1 }, []]);
    expect(rows()).toEqual(['a', 'c']);
    expect(committed()).toEqual(['a', 'c']);
    expect(db.inTransaction).toBe(false);
  });

  it("delivers a failed call's error only after the batch is over, so its caller's error path never runs inside the transaction", async () => {
    let seenByErrorPath: unknown[] = [];
    const failing = runner
      .runAtomic(async () => {
        insert('x');
        throw new Error('at capacity');
      })
      .catch(() => {
        seenByErrorPath = [db.inTransaction, committed()];
      });
    const later = runner.runAtomic(async () => {
      await Promise.resolve();
      insert('y');
    });
    await Promise.all([failing, later]);
    expect(seenByErrorPath).toEqual([false, ['y']]);
  });

  it('settles no call before its COMMIT: a commit that fails fails every call of the batch, and nothing is kept', async () => {
    const settled: string[] = [];
    const a = runner.runAtomic(async () => insert('a')).then(() => settled.push('a'));
    // A row whose parent does not exist: the deferred foreign key fails the COMMIT, not the insert.
    const b = runner.runAtomic(async () => db.prepare('INSERT INTO items (name, parent) VALUES (?, ?)').run('b', 'missing')).then(() => settled.push('b'));
    // (Matched by code: better-sqlite3's error class may come from another test file's realm.)
    await expect(a).rejects.toHaveProperty('code', 'SQLITE_CONSTRAINT_FOREIGNKEY');
    await expect(b).rejects.toHaveProperty('code', 'SQLITE_CONSTRAINT_FOREIGNKEY');
    expect(settled).toEqual([]);
    expect(rows()).toEqual([]);
    expect(db.inTransaction).toBe(false);
  });

  it('calls of later turns commit in later transactions, queued behind the earlier ones, and see their rows', async () => {
    await runner.runAtomic(async () => insert('first'));
    const second = await runner.runAtomic(async () => {
      insert('second');
      return rows();
    });
    expect(second).toEqual(['first', 'second']);
    expect(rows()).toEqual(['first', 'second']);
  });
});
