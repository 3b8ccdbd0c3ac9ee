import type { DataSource, QueryRunner } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/**
 * The one file that relies on TypeORM's internals (pinned in package.json; the spec beside it fails
 * when the installed version no longer behaves as relied on): the driver's connection objects
 * (better-sqlite3's Database, pg's Pool and Client), its per-value conversions, the SQLite driver's
 * one shared query runner, and the state a query runner keeps of its transaction.
 */

/** A better-sqlite3 prepared statement (the part the gateway uses). */
export interface SqliteStatement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  raw(on: boolean): SqliteStatement;
}

/** better-sqlite3's Database (the part the gateway uses). */
export interface SqliteConnection {
  readonly inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
  pragma(source: string): unknown;
}

/** A pg Pool or Client: both take a named statement and answer rows and a row count. */
export interface PgQueryable {
  query(
    config: { name: string; text: string; values: unknown[] } | string,
  ): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

export interface PgLiterals {
  escapeLiteral(value: string): string;
}

/** SQLite: TypeORM's one connection (`driver.databaseConnection`, a better-sqlite3 Database). */
export function sqliteConnectionOf(dataSource: DataSource): SqliteConnection {
  return (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
}

/** PostgreSQL: TypeORM's pool (`driver.master`, a pg Pool). */
export function pgPoolOf(dataSource: DataSource): PgQueryable {
  return (dataSource.driver as unknown as { master: PgQueryable }).master;
}

/** PostgreSQL: the pg Client a connected query runner holds (`databaseConnection`), if it still holds one. */
export function pgClientOf(runner: QueryRunner | undefined): (PgQueryable & PgLiterals) | undefined {
  if (!runner || runner.isReleased) return undefined;
  return (runner as QueryRunner & { databaseConnection?: PgQueryable & PgLiterals }).databaseConnection;
}

/** What TypeORM's `commitTransaction` records once its own COMMIT is through (for a COMMIT sent past it). */
export function markCommitted(runner: QueryRunner): void {
  Object.assign(runner, { isTransactionActive: false, transactionDepth: 0 });
}

/** The driver's conversion of one value read from the database (`prepareHydratedValue`). */
export interface HydratingDriver {
  prepareHydratedValue(value: unknown, column: ColumnMetadata): unknown;
}

/** The driver, for its conversion of the values read from the database. */
export function hydratingDriver(dataSource: DataSource): HydratingDriver {
  return dataSource.driver as unknown as HydratingDriver;
}

/** The driver's conversion of one value read from the database, transformers included. */
export function hydratedValue(dataSource: DataSource, value: unknown, column: ColumnMetadata): unknown {
  return hydratingDriver(dataSource).prepareHydratedValue(value, column);
}

/** The driver's conversion of one value written to the database, transformers included (`preparePersistentValue`). */
export function persistentValue(dataSource: DataSource, value: unknown, column: ColumnMetadata): unknown {
  return dataSource.driver.preparePersistentValue(value, column) as unknown;
}

/**
 * SQLite: TypeORM's one shared query runner (every repository call outside a transaction goes
 * through it: the driver hands out the same runner each time) and a second runner of the same class
 * on the same connection, for transactions of the gateway's own.
 */
export function sqliteRunners(dataSource: DataSource): { shared: QueryRunner; own: QueryRunner } {
  const shared = dataSource.driver.createQueryRunner('master');
  const RunnerClass = shared.constructor as new (driver: unknown) => QueryRunner;
  const own = new RunnerClass(dataSource.driver);
  Object.assign(own, { manager: dataSource.createEntityManager(own) });
  return { shared, own };
}

/** Puts `wrap` around every statement of `runner` (TypeORM's calls go through its `query`). */
export function wrapQueries(
  runner: QueryRunner,
  wrap: (sql: string, run: () => Promise<unknown>) => Promise<unknown>,
): void {
  const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
  Object.assign(runner, { query: (sql: string, ...rest: unknown[]) => wrap(sql, () => query(sql, ...rest)) });
}
