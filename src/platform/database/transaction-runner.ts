import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';

/**
 * Runs a unit of work in one database transaction. SQLite has a single connection in TypeORM,
 * where two overlapping transactions would nest into each other; they are queued here instead.
 * Keep the work short: no network calls inside.
 */
@Injectable()
export class TransactionRunner {
  private queue: Promise<unknown> = Promise.resolve();
  readonly isPostgres: boolean;

  constructor(private readonly dataSource: DataSource) {
    this.isPostgres = dataSource.options.type === 'postgres';
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.isPostgres) return this.dataSource.transaction(work);
    const next = this.queue.then(() => this.dataSource.transaction(work));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * For work that is a single statement on PostgreSQL (atomic on its own: no BEGIN/COMMIT round
   * trips, `manager` undefined) and several statements on SQLite (run in a queued transaction as
   * `run` does). See `TasksRepository.open`.
   */
  runAtomic<T>(work: (manager: EntityManager | undefined) => Promise<T>): Promise<T> {
    return this.isPostgres ? work(undefined) : this.run(work);
  }
}

/** True when the error is a unique-constraint violation, on either database. */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = (error as QueryFailedError & { driverError?: { code?: string } }).driverError;
  const code = driverError?.code ?? '';
  return code === '23505' || code.startsWith('SQLITE_CONSTRAINT_UNIQUE') || code.startsWith('SQLITE_CONSTRAINT_PRIMARYKEY');
}
