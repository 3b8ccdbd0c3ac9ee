import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { HotSql } from './hot-sql';

/**
 * Runs a unit of work in one database transaction. SQLite has a single connection in TypeORM,
 * where two overlapping transactions would nest into each other; they are queued here instead
 * (and `runAtomic` calls of one event-loop turn share one, see there). Keep the work short: no
 * network calls inside.
 */
@Injectable()
export class TransactionRunner {
  private queue: Promise<unknown> = Promise.resolve();
  readonly isPostgres: boolean;
  private sqliteControl?: Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo', { run(): unknown }>;
  /** `runAtomic` calls waiting for this turn's group commit (SQLite). */
  private pending: PendingWork[] = [];

  constructor(private readonly dataSource: DataSource) {
    this.isPostgres = dataSource.options.type === 'postgres';
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.isPostgres) return this.pgTransaction(work);
    const next = this.queue.then(() => this.dataSource.transaction(work));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * For work made only of `HotSql` statements (it gets no manager): a single statement on
   * PostgreSQL (atomic on its own: no BEGIN/COMMIT round trips) and several statements on SQLite.
   * See `TasksRepository.open`.
   *
   * On SQLite the calls made in one turn of the event loop commit together (group commit): one
   * transaction, each call's work in a savepoint of its own, so a call that fails is undone alone
   * and the others still commit. Each call settles only once the transaction holding its work has
   * committed, exactly as with a transaction of its own; what the batch saves is the commit: every
   * page the calls share (the account's row, the last pages of the tables and of their indexes) is
   * written to the WAL once per batch instead of once per call. Like `run`, it is queued: never
   * call it from inside a transaction's work, which it would wait for.
   */
  runAtomic<T>(work: (manager: undefined) => Promise<T>): Promise<T> {
    if (this.isPostgres) return work(undefined);
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve, reject } as PendingWork);
      if (this.pending.length === 1) setImmediate(this.flushPending);
    });
  }

  /** The calls of this turn, queued behind any transaction already queued. */
  private readonly flushPending = (): void => {
    const batch = this.pending;
    this.pending = [];
    const next = this.queue.then(() => this.sqliteGroup(batch));
    this.queue = next.catch(() => undefined);
  };

  /**
   * TypeORM's transaction, plus `HotSql.runAtCommit`: statements deferred to the commit go out with
   * the COMMIT in one round trip (see there).
   */
  private async pgTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const hot = HotSql.of(this.dataSource);
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      hot.deferToCommit(runner);
      const result = await work(runner.manager);
      await hot.commit(runner);
      return result;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  /**
   * One transaction for `batch`, a savepoint per call. A call whose work throws is rolled back to
   * its savepoint and rejected; if SQLite gave up the whole transaction meanwhile (it does on some
   * errors: disk full, I/O), the calls already done in it are rejected too, and the rest run in a
   * new one. Nothing is reported done before its COMMIT.
   */
  private async sqliteGroup(batch: PendingWork[]): Promise<void> {
    try {
      await this.sqliteGroupOnce(batch);
    } catch (error) {
      // Unexpected (a savepoint statement failed): nothing of the batch is committed, every call fails.
      const db = (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
      if (db.inTransaction) this.sqliteControl?.rollback.run();
      for (const call of batch) call.reject(error);
    }
  }

  private async sqliteGroupOnce(batch: PendingWork[]): Promise<void> {
    const db = (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
    const sql = (this.sqliteControl ??= {
      begin: db.prepare('BEGIN'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      savepoint: db.prepare('SAVEPOINT grouped'),
      release: db.prepare('RELEASE grouped'),
      rollbackTo: db.prepare('ROLLBACK TO grouped'),
    });
    // Settled only once the batch is over: a caller's own continuation (its error path included)
    // never runs while the transaction is open, where its writes would join it.
    let done: Array<{ call: PendingWork; result: unknown }> = [];
    const failed: Array<{ call: PendingWork; error: unknown }> = [];
    const failDone = (error: unknown): void => {
      for (const { call } of done) failed.push({ call, error });
      done = [];
    };
    for (const call of batch) {
      if (!db.inTransaction) {
        failDone(new Error('the transaction was rolled back by SQLite'));
        try {
          sql.begin.run();
        } catch (error) {
          failed.push({ call, error });
          continue;
        }
      }
      sql.savepoint.run();
      let result: unknown;
      try {
        result = await call.work(undefined);
      } catch (error) {
        // Its own statements are undone; the earlier calls' are kept.
        if (db.inTransaction) {
          sql.rollbackTo.run();
          sql.release.run();
        }
        failed.push({ call, error });
        continue;
      }
      if (!db.inTransaction) {
        failed.push({ call, error: new Error('the transaction was rolled back by SQLite') });
        continue;
      }
      sql.release.run();
      done.push({ call, result });
    }
    if (!db.inTransaction) failDone(new Error('the transaction was rolled back by SQLite'));
    else {
      try {
        sql.commit.run();
      } catch (error) {
        if (db.inTransaction) sql.rollback.run();
        failDone(error);
      }
    }
    for (const { call, error } of failed) call.reject(error);
    for (const { call, result } of done) call.resolve(result);
  }
}

interface PendingWork {
  work: (manager: undefined) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

/** The part of better-sqlite3's Database this needs. */
interface SqliteConnection {
  readonly inTransaction: boolean;
  prepare(sql: string): { run(): unknown };
}

/** True when the error is a unique-constraint violation, on either database. */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = (error as QueryFailedError & { driverError?: { code?: string } }).driverError;
  const code = driverError?.code ?? '';
  return code === '23505' || code.startsWith('SQLITE_CONSTRAINT_UNIQUE') || code.startsWith('SQLITE_CONSTRAINT_PRIMARYKEY');
}
