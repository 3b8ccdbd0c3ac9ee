import { Logger } from '@nestjs/common';
import { setImmediate as nextTurn } from 'timers/promises';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { SqliteConnection, sqliteConnectionOf, sqliteRunners, wrapQueries } from '../internals/typeorm-internals';

/** Statements that change the database or its transaction state (anything else reads). */
const WRITE = /^\s*(INSERT|UPDATE|DELETE|REPLACE|BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|CREATE|DROP|ALTER)\b/i;

export function isWriteStatement(sql: string): boolean {
  return WRITE.test(sql);
}

const INSTANCES = new WeakMap<DataSource, SqliteSerializer>();

/**
 * SQLite has one connection here (TypeORM's better-sqlite3 driver holds one), and a transaction on
 * it stays open across its work's `await`s. Any statement that reaches the connection meanwhile is
 * inside that transaction, whoever sent it: a write from another request would commit with it, or
 * be undone with it if it rolls back (a refused debit, an insufficient balance), though its own
 * caller was told it succeeded.
 *
 * So every transaction of `TransactionRunner` (a "unit") runs here, one at a time, on a query runner
 * of its own (same connection), and while one is open a write from outside it (TypeORM's shared
 * query runner, or `HotSql` without the unit's manager) waits for it to end and then runs, in the
 * order it came. Reads are not held: they may see a unit's uncommitted rows. A unit
 * starts only when no transaction that TypeORM opened by itself (a non-transactional `save`) is
 * open, so units never nest into one.
 *
 * Work inside a unit must write only through the unit's manager: a write from inside that went
 * through the shared runner would wait for the unit, which waits for it. So that such a mistake
 * fails instead of stopping every write of the process, a held write that has not started after
 * `holdLimitMs` (30 s; the gateway's transactions take milliseconds) is not sent: its caller gets
 * an error, and the unit that waited for it fails and rolls back.
 *
 * Hand-written because: correctness on SQLite's one connection, which neither TypeORM nor
 * better-sqlite3 provides (docs/hand-written.md).
 */
export class SqliteSerializer {
  /** The units' query runner: same connection, but not the one TypeORM's non-transactional calls share. */
  readonly runner: QueryRunner;
  private readonly db: SqliteConnection;
  private queue: Promise<unknown> = Promise.resolve();
  private unitOpen = false;
  private readonly logger = new Logger('SqliteSerializer');

  private constructor(
    dataSource: DataSource,
    private readonly holdLimitMs: number,
  ) {
    this.db = sqliteConnectionOf(dataSource);
    const { shared, own } = sqliteRunners(dataSource);
    this.runner = own;
    this.holdOutsideWrites(shared);
  }

  /** The one serializer of `dataSource` (options count only where it is created). */
  static of(dataSource: DataSource, { holdLimitMs = 30_000 }: { holdLimitMs?: number } = {}): SqliteSerializer {
    let serializer = INSTANCES.get(dataSource);
    if (!serializer) {
      serializer = new SqliteSerializer(dataSource, holdLimitMs);
      INSTANCES.set(dataSource, serializer);
    }
    return serializer;
  }

  /** The manager a unit's work gets: statements through it are the unit's own. */
  get manager(): EntityManager {
    return this.runner.manager;
  }

  /** Whether `manager` belongs to the unit (its statements run at once, inside it). */
  owns(manager: EntityManager | undefined): boolean {
    return manager !== undefined && manager.queryRunner === this.runner;
  }

  /** Whether a write from outside must wait now. */
  get holding(): boolean {
    return this.unitOpen;
  }

  /** Runs `unit` after every unit queued before it, with no other transaction open on the connection. */
  unit<T>(unit: () => Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      // A transaction TypeORM opened by itself (a non-transactional save) finishes first.
      while (this.db.inTransaction) await nextTurn();
      this.unitOpen = true;
      try {
        return await unit();
      } finally {
        this.unitOpen = false;
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** A write from outside the units: at once, or, while one is open, once it (and those queued before) ended. */
  outside<T>(write: () => T | Promise<T>): Promise<T> {
    if (!this.unitOpen) {
      try {
        return Promise.resolve(write());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      let started = false;
      let abandoned = false;
      const limit = setTimeout(() => {
        if (started) return;
        abandoned = true;
        const message = `A database write waited ${this.holdLimitMs} ms for an open transaction and was not sent (a write inside a transaction must go through its manager).`;
        this.logger.error(message);
        reject(new Error(message));
      }, this.holdLimitMs);
      limit.unref();
      const job = this.queue.then(() => {
        if (abandoned) return undefined;
        started = true;
        clearTimeout(limit);
        return Promise.resolve().then(write).then(resolve, reject);
      });
      this.queue = job.catch(() => undefined);
    });
  }

  /** TypeORM's shared runner (every repository call outside a unit): its writes go through `outside`. */
  private holdOutsideWrites(shared: QueryRunner): void {
    wrapQueries(shared, (sql, run) => (this.unitOpen && isWriteStatement(sql) ? this.outside(run) : run()));
  }
}
