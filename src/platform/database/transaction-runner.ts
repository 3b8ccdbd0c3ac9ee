import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { HotSql } from './hot-sql';

/**
 * Runs a unit of work in one database transaction. SQLite has a single connection in TypeORM,
 * where two overlapping transactions would nest into each other; they are queued here instead.
 * Keep the work short: no network calls inside.
 */
@Injectable()
export class TransactionRunner {
  private queue: Promise<unknown> = Promise.resolve();
  readonly isPostgres: boolean;
  private sqliteControl?: { begin: { run(): unknown }; commit: { run(): unknown }; rollback: { run(): unknown } };

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
   * PostgreSQL (atomic on its own: no BEGIN/COMMIT round trips) and several statements on SQLite,
   * in a transaction queued as `run` queues one, begun and committed on the driver's connection
   * directly (TypeORM's transaction costs a query runner and its events per call). See
   * `TasksRepository.open`.
   */
  runAtomic<T>(work: (manager: undefined) => Promise<T>): Promise<T> {
    if (this.isPostgres) return work(undefined);
    const next = this.queue.then(() => this.sqliteAtomic(work));
    this.queue = next.catch(() => undefined);
    return next;
  }

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

  private async sqliteAtomic<T>(work: (manager: undefined) => Promise<T>): Promise<T> {
    const db = (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
    const statements = (this.sqliteControl ??= { begin: db.prepare('BEGIN'), commit: db.prepare('COMMIT'), rollback: db.prepare('ROLLBACK') });
    statements.begin.run();
    try {
      const result = await work(undefined);
      statements.commit.run();
      return result;
    } catch (error) {
      if (db.inTransaction) statements.rollback.run();
      throw error;
    }
  }
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
