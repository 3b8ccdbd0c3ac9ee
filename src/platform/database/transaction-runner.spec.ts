import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { setFastPaths } from '../config/fast-paths';
import { HotSql } from './hot-sql';
import { SqliteSerializer } from './sqlite-serializer';
import { TransactionRunner } from './transaction-runner';
import { sqliteConnectionOf } from '../internals/typeorm-internals';

interface Sqlite {
  prepare(sql: string): { run(...params: unknown[]): unknown; get(...params: unknown[]): unknown; all(): unknown[] };
  exec(sql: string): void;
  inTransaction: boolean;
}

/**
 * SQLite's one connection: `runAtomic`'s group commit (the calls of one event-loop turn share a
 * transaction, each in a savepoint), and writes from outside a transaction kept out of it.
 */
describe('TransactionRunner on SQLite', () => {
  let ds: DataSource;
  let db: Sqlite;
  let runner: TransactionRunner;
  let dir: string;
  /** A second connection to the same file: it sees only what was committed. */
  let observer: Database.Database;
  const rows = () =>
    (db.prepare('SELECT name FROM items ORDER BY name').all() as Array<{ name: string }>).map((r) => r.name);
  const insert = (name: string) => db.prepare('INSERT INTO items (name) VALUES (?)').run(name);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-group-commit-'));
    ds = new DataSource({ type: 'better-sqlite3', database: join(dir, 'db.sqlite') });
    await ds.initialize();
    db = sqliteConnectionOf(ds) as unknown as Sqlite;
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(
      'CREATE TABLE parents (id TEXT PRIMARY KEY); CREATE TABLE items (name TEXT PRIMARY KEY, parent TEXT REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)',
    );
    observer = new Database(join(dir, 'db.sqlite'), { readonly: true });
    runner = new TransactionRunner(ds);
  });
  afterEach(async () => {
    observer.close();
    await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  const committed = () =>
    (observer.prepare('SELECT name FROM items ORDER BY name').all() as Array<{ name: string }>).map((r) => r.name);

  it('runs the calls of one turn in one transaction; a failing call is undone alone, the others commit', async () => {
    const seenInside: unknown[] = [];
    const a = runner.runAtomic(async () => {
      insert('a');
      return 'A';
    });
    const b = runner.runAtomic(async () => {
      insert('b');
      // The same transaction: a's row is there, and not committed yet.
      seenInside.push(
        db.inTransaction,
        db.prepare('SELECT count(*) AS n FROM items WHERE name = ?').get('a'),
        committed(),
      );
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

  it('a call alone in its turn runs in a transaction without a savepoint; failing, it is rolled back whole', async () => {
    const sent: string[] = [];
    const prepare = db.prepare.bind(db);
    db.prepare = (sql: string) => {
      const statement = prepare(sql);
      const run = statement.run.bind(statement);
      statement.run = (...params: unknown[]) => {
        sent.push(sql);
        return run(...params);
      };
      return statement;
    };
    await expect(runner.runAtomic(async () => insert('a'))).resolves.toBeDefined();
    expect(sent).toEqual(['BEGIN', 'INSERT INTO items (name) VALUES (?)', 'COMMIT']);
    sent.length = 0;
    const failing = runner.runAtomic(async () => {
      insert('b');
      throw new Error('b fails after its insert');
    });
    await expect(failing).rejects.toThrow('b fails after its insert');
    expect(sent).toEqual(['BEGIN', 'INSERT INTO items (name) VALUES (?)', 'ROLLBACK']);
    sent.length = 0;
    await Promise.all([runner.runAtomic(async () => insert('c')), runner.runAtomic(async () => insert('d'))]);
    expect(sent.filter((sql) => !sql.startsWith('INSERT'))).toEqual([
      'BEGIN',
      'SAVEPOINT grouped',
      'RELEASE grouped',
      'SAVEPOINT grouped',
      'RELEASE grouped',
      'COMMIT',
    ]);
    expect(committed()).toEqual(['a', 'c', 'd']);
    expect(db.inTransaction).toBe(false);
  });

  it('runGrouped joins the same group commit with a manager: one transaction, a failing call undone alone', async () => {
    const inside: boolean[] = [];
    const a = runner.runGrouped(async (manager) => {
      await HotSql.of(ds).run(manager, 'INSERT INTO items (name) VALUES (?)', ['a']);
      inside.push(db.inTransaction);
      return 'A';
    });
    const b = runner.runGrouped(async (manager) => {
      await HotSql.of(ds).run(manager, 'INSERT INTO items (name) VALUES (?)', ['b']);
      throw new Error('b fails');
    });
    const c = runner.runAtomic(async () => {
      inside.push(db.inTransaction, committed().length === 0);
      insert('c');
      return 'C';
    });
    await expect(a).resolves.toBe('A');
    await expect(b).rejects.toThrow('b fails');
    await expect(c).resolves.toBe('C');
    // c ran inside a's transaction, before anything was committed.
    expect(inside).toEqual([true, true, true]);
    expect(committed()).toEqual(['a', 'c']);
  });

  it('with fast paths off (FAST_PATHS=false), commits each call in a transaction of its own', async () => {
    setFastPaths(false);
    const own = new TransactionRunner(ds);
    setFastPaths(true);
    let seenByB: unknown[] = [];
    const a = own.runAtomic(async (manager) => {
      await manager!.query('INSERT INTO items (name) VALUES (?)', ['a']);
      return 'A';
    });
    const b = own.runAtomic(async () => {
      seenByB = committed();
      return 'B';
    });
    await expect(Promise.all([a, b])).resolves.toEqual(['A', 'B']);
    expect(seenByB).toEqual(['a']);
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
    const b = runner
      .runAtomic(async () => db.prepare('INSERT INTO items (name, parent) VALUES (?, ?)').run('b', 'missing'))
      .then(() => settled.push('b'));
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

  /** A transaction held open across an `await` until `release` is called; `entered` once its first row is written. */
  function heldOpen(
    run: (work: (tx: import('typeorm').EntityManager | undefined) => Promise<unknown>) => Promise<unknown>,
    outcome: 'commit' | 'rollback',
  ) {
    let entered!: () => void;
    let release!: () => void;
    const isEntered = new Promise<void>((resolve) => (entered = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const done = run(async (tx) => {
      await HotSql.of(ds).run(tx, 'INSERT INTO items (name) VALUES (?)', ['inside']);
      entered();
      await released;
      if (outcome === 'rollback') throw new Error('refused: rolled back');
    });
    return { entered: isEntered, release, done };
  }

  it('a write from outside never joins an open transaction: it waits, and survives that transaction rolling back', async () => {
    const tx = heldOpen((work) => runner.run(work), 'rollback');
    await tx.entered;
    const hotWrite = HotSql.of(ds).run(undefined, 'INSERT INTO items (name) VALUES (?)', ['hot-sql']);
    const typeormWrite = ds.query('INSERT INTO items (name) VALUES (?)', ['typeorm']);
    const typeormTransaction = ds.transaction((m) =>
      m.query('INSERT INTO items (name) VALUES (?)', ['typeorm-transaction']),
    );
    // Held while the transaction is open: nothing of theirs is in it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(rows()).toEqual(['inside']);
    tx.release();
    await expect(tx.done).rejects.toThrow('refused: rolled back');
    await Promise.all([hotWrite, typeormWrite, typeormTransaction]);
    expect(committed()).toEqual(['hot-sql', 'typeorm', 'typeorm-transaction']);
    expect(db.inTransaction).toBe(false);
  });

  it("the same for a group commit's transaction: a call that fails undoes only its own rows", async () => {
    const group = heldOpen((work) => runner.runAtomic(work), 'rollback');
    await group.entered;
    const outside = HotSql.of(ds).run(undefined, 'INSERT INTO items (name) VALUES (?)', ['outside']);
    group.release();
    await expect(group.done).rejects.toThrow('refused: rolled back');
    await outside;
    expect(committed()).toEqual(['outside']);
  });

  it('reads from outside are not held, and writes from outside keep their order', async () => {
    const tx = heldOpen((work) => runner.run(work), 'commit');
    await tx.entered;
    const order: string[] = [];
    const first = HotSql.of(ds)
      .run(undefined, 'INSERT INTO items (name) VALUES (?)', ['o1'])
      .then(() => order.push('o1'));
    const second = ds.query('INSERT INTO items (name) VALUES (?)', ['o2']).then(() => order.push('o2'));
    await expect(HotSql.of(ds).first(undefined, 'SELECT count(*) AS n FROM items', [])).resolves.toEqual({ n: 1 });
    tx.release();
    await Promise.all([tx.done, first, second]);
    expect(order).toEqual(['o1', 'o2']);
    expect(committed()).toEqual(['inside', 'o1', 'o2']);
  });

  it('a transaction waits for one TypeORM opened by itself, instead of nesting into it', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const foreign = ds.transaction(async (m) => {
      await m.query('INSERT INTO items (name) VALUES (?)', ['foreign']);
      await released;
    });
    await new Promise((resolve) => setImmediate(resolve));
    const ours = runner.run(async (tx) => {
      await HotSql.of(ds).run(tx, 'INSERT INTO items (name) VALUES (?)', ['ours']);
      throw new Error('ours rolls back');
    });
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await foreign;
    await expect(ours).rejects.toThrow('ours rolls back');
    expect(committed()).toEqual(['foreign']);
    expect(db.inTransaction).toBe(false);
  });

  it('a write sent from inside a transaction without its manager fails after the hold limit, instead of stopping every write', async () => {
    const other = new DataSource({ type: 'better-sqlite3', database: join(dir, 'other.sqlite') });
    await other.initialize();
    try {
      await other.query('CREATE TABLE items (name TEXT PRIMARY KEY)');
      SqliteSerializer.of(other, { holdLimitMs: 50 });
      const transactions = new TransactionRunner(other);
      const names = async () =>
        ((await other.query('SELECT name FROM items ORDER BY name')) as Array<{ name: string }>).map((r) => r.name);
      const mistaken = transactions.run(async (tx) => {
        await tx.query('INSERT INTO items (name) VALUES (?)', ['inside']);
        // The shared runner instead of `tx`: held behind this very transaction.
        await other.query('INSERT INTO items (name) VALUES (?)', ['through-the-shared-runner']);
      });
      await expect(mistaken).rejects.toThrow('waited 50 ms for an open transaction and was not sent');
      // Rolled back, and the connection is free again: the next write goes through.
      await other.query('INSERT INTO items (name) VALUES (?)', ['after']);
      expect(await names()).toEqual(['after']);
    } finally {
      await other.destroy();
    }
  });
});
