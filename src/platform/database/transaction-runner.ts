import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { HotSql } from './hot-sql';
import { fastPathsOn } from '../config/fast-paths';
import { sqliteConnectionOf } from '../internals/typeorm-internals';
import { SqliteSerializer } from './sqlite-serializer';

/**
 * Runs a unit of work in one database transaction. SQLite has a single connection in TypeORM,
 * where two overlapping transactions would nest into each other, and where any statement sent
 * while one is open joins it: there they run one at a time through `SqliteSerializer`, which
 * holds writes from outside until the open one has ended (and `runAtomic` calls of one event-loop
 * turn share one, see there). Keep the work short: no network calls inside; and write only through
 * the manager it is given.
 */
@Injectable()
export class TransactionRunner {
  readonly isPostgres: boolean;
  private sqliteControl?: Record<
    'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo',
    { run(): unknown }
  >;
  /** `runAtomic` calls waiting for this turn's group commit (SQLite). */
  private pending: PendingWork[] = [];

  private readonly serializer?: SqliteSerializer;
  /** SQLite group commit (`runAtomic`); off with `FAST_PATHS=false`: a transaction per call. */
  private readonly groupCommit = fastPathsOn('group-commit');

  constructor(private readonly dataSource: DataSource) {
    this.isPostgres = dataSource.options.type === 'postgres';
    if (!this.isPostgres) this.serializer = SqliteSerializer.of(dataSource);
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.serializer) return this.pgTransaction(work);
    const { runner } = this.serializer;
    // As TypeORM's own `transaction`, on the serializer's runner instead of the shared one.
    return this.serializer.unit(async () => {
      try {
        await runner.startTransaction();
        const result = await work(runner.manager);
        await runner.commitTransaction();
        return result;
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    });
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
   * call it from inside a transaction's work, which it would wait for. The work gets the
   * transaction's manager on SQLite (pass it to every `HotSql` statement), none on PostgreSQL.
   *
   * Hand-written because: the commits it saves (docs/hand-written.md, "group commit"). With fast
   * paths off (`FAST_PATHS=false`) each call is a transaction of its own, as `run`.
   */
  runAtomic<T>(work: (manager: EntityManager | undefined) => Promise<T>): Promise<T> {
    if (!this.serializer) return work(undefined);
    if (!this.groupCommit) return this.run(work);
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve, reject } as PendingWork);
      if (this.pending.length === 1) setImmediate(this.flushPending);
    });
  }

  /**
   * Work of several statements that must commit together, many of which come at once (a sync
   * batch's settlements): on PostgreSQL a transaction of its own, as `run`; on SQLite it joins this
   * turn's group commit, as `runAtomic` (its own savepoint, so a failing call is undone alone), so
   * the settlements of one batch share one COMMIT. Write through `HotSql` or TypeORM calls that open
   * no transaction of their own (no `save`, no `transaction`). With fast paths off: `run`.
   */
  runGrouped<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.serializer || !this.groupCommit) return this.run(work);
    return this.runAtomic((manager) => work(manager as EntityManager));
  }

  /** The calls of this turn, queued behind any transaction already queued. */
  private readonly flushPending = (): void => {
    const batch = this.pending;
    this.pending = [];
    void this.serializer!.unit(() => this.sqliteGroup(batch));
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
   * One transaction for `batch`, a savepoint per call when it holds more than one. A call whose
   * work throws is rolled back to its savepoint (alone: the transaction) and rejected; if SQLite gave
   * up the whole transaction meanwhile (it does on some errors: disk full, I/O), the calls already
   * done in it are rejected too, and the rest run in a new one. Nothing is reported done before its
   * COMMIT.
   */
  private async sqliteGroup(batch: PendingWork[]): Promise<void> {
    try {
      await this.sqliteGroupOnce(batch);
    } catch (error) {
      // Unexpected (a savepoint statement failed): nothing of the batch is committed, every call fails.
      const db = sqliteConnectionOf(this.dataSource);
      if (db.inTransaction) this.sqliteControl?.rollback.run();
      for (const call of batch) call.reject(error);
    }
  }

  private async sqliteGroupOnce(batch: PendingWork[]): Promise<void> {
    const db = sqliteConnectionOf(this.dataSource);
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
    // A batch of one needs no savepoint: undoing it is undoing the whole transaction.
    const alone = batch.length === 1;
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
      if (!alone) sql.savepoint.run();
      let result: unknown;
      try {
        result = await call.work(this.serializer!.manager);
      } catch (error) {
        // Its own statements are undone; the earlier calls' are kept.
        if (db.inTransaction && alone) sql.rollback.run();
        else if (db.inTransaction) {
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
      if (!alone) sql.release.run();
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
  work: (manager: EntityManager | undefined) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

/** True when the error is a unique-constraint violation, on either database. */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = (error as QueryFailedError & { driverError?: { code?: string } }).driverError;
  const code = driverError?.code ?? '';
  return (
    code === '23505' || code.startsWith('SQLITE_CONSTRAINT_UNIQUE') || code.startsWith('SQLITE_CONSTRAINT_PRIMARYKEY')
  );
}
