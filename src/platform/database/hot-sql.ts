import {
  DataSource,
  EntityManager,
  EntityMetadata,
  EntityTarget,
  ObjectLiteral,
  QueryFailedError,
  QueryRunner,
} from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { fastPathsOn } from '../config/fast-paths';
import {
  PgLiterals,
  PgQueryable,
  SqliteStatement,
  hydratedValue,
  hydratingDriver,
  markCommitted,
  persistentValue,
  pgClientOf,
  pgPoolOf,
  sqliteConnectionOf,
} from '../internals/typeorm-internals';
import { compileSqliteHydrator } from './row-hydrator';
import { SqliteSerializer } from './sqlite-serializer';

interface EntityShape {
  metadata: EntityMetadata;
  /** Every column, in table order. */
  columns: ColumnMetadata[];
  byProperty: Map<string, ColumnMetadata>;
  insertSql: string;
  selectList: string;
  /**
   * `findOne` texts by WHERE clause (built once: a long text rebuilt per call is hashed anew for the statement lookup).
   */
  selectTexts: Map<string, string>;
  /** SQLite: a row read as an array (select-list order) into an entity; built on first use. */
  fromValues?: (values: unknown[]) => unknown;
}

function pgType(column: ColumnMetadata): string {
  const type = String(column.type);
  return type === 'varchar' || type === 'character varying' ? 'varchar' : type;
}

const INSTANCES = new WeakMap<DataSource, HotSql>();

/**
 * Fixed SQL for the few statements every create and query runs, through the driver TypeORM
 * already holds, with TypeORM's own value conversion (column transformers, driver types) and
 * errors (`QueryFailedError`). TypeORM's query builder rebuilds the SQL text on every call and its
 * SQLite driver splices numbers into it as literals, so the same statement was prepared again and
 * again; here each text is built once and, on SQLite, prepared once (better-sqlite3 runs it
 * synchronously on TypeORM's one connection; a write whose manager is not the open transaction's
 * waits for that transaction to end, see `SqliteSerializer`). On PostgreSQL each text is a named
 * prepared statement sent on the pg pool (or on the transaction's client, when there is one): one
 * round trip each.
 *
 * SQL is written with `?` placeholders and double-quoted identifiers (valid on both databases).
 *
 * With fast paths off (`FAST_PATHS=false`, read when the instance is made) every method takes
 * TypeORM's public path instead, with the same results: statements through a query runner (the
 * transaction's, or the shared one), reads and updates through the query builder, inserts through
 * `EntityManager.insert`, and statements meant for the COMMIT sent at once.
 *
 * Hand-written because: gateway CPU per create and query (docs/hand-written.md, "hot SQL").
 */
export class HotSql {
  readonly isPostgres: boolean;
  /** `FAST_PATHS` when the instance was made. */
  readonly fast = fastPathsOn('hot-sql');
  private readonly prepared = new Map<string, SqliteStatement>();
  /** SQLite statements that answer rows as arrays in select-list order (`findOne`, `returning`). */
  private readonly preparedRaw = new Map<string, SqliteStatement>();
  private readonly pgStatements = new Map<string, { name: string; text: string }>();
  private readonly shapes = new Map<EntityTarget<unknown>, EntityShape>();
  private readonly updateTexts = new Map<string, string>();
  /** PostgreSQL transactions (by query runner) whose `runAtCommit` statements wait to go out with their COMMIT. */
  private readonly atCommit = new WeakMap<QueryRunner, Array<{ sql: string; params: unknown[] }>>();
  private serializer?: SqliteSerializer;

  private constructor(private readonly dataSource: DataSource) {
    this.isPostgres = dataSource.options.type === 'postgres';
  }

  /** One instance per DataSource (its prepared statements belong to that connection). */
  static of(dataSource: DataSource): HotSql {
    let hot = INSTANCES.get(dataSource);
    if (!hot) {
      hot = new HotSql(dataSource);
      INSTANCES.set(dataSource, hot);
    }
    return hot;
  }

  /** Runs a write; the number of rows it changed. */
  async run(manager: EntityManager | undefined, sql: string, params: unknown[]): Promise<number> {
    if (!this.fast) {
      const result = await this.viaRunner(manager, sql, params);
      return result.affected ?? result.records.length;
    }
    if (!this.isPostgres) return this.sqliteWrite(manager, sql, params, (stmt) => stmt.run(...params).changes);
    const result = await this.pg(manager, sql, params);
    return result.affected ?? result.records.length;
  }

  /**
   * A write whose result nobody reads, on a row every transaction of an account contends for (the
   * account row): in a PostgreSQL transaction opened by `TransactionRunner.run` it is sent together
   * with the COMMIT, in one round trip, so the row lock it takes is held only while PostgreSQL runs
   * the two, not while the gateway's event loop gets round to sending the COMMIT (under load that
   * wait held every other create and settlement of the account behind it). Anywhere else it runs
   * at once, like `run`. Statements after it in the same transaction run before it: use it last.
   */
  async runAtCommit(manager: EntityManager | undefined, sql: string, params: unknown[]): Promise<void> {
    const pending = manager?.queryRunner ? this.atCommit.get(manager.queryRunner) : undefined;
    if (pending) pending.push({ sql, params });
    else await this.run(manager, sql, params);
  }

  /**
   * An INSERT of every column of `values` whose outcome nobody reads before the commit (a ledger
   * entry, a usage row, a callback): in a PostgreSQL transaction opened by `TransactionRunner.run`
   * it waits for the COMMIT and goes out with it, like `runAtCommit`, so it costs no round trip of
   * its own; anywhere else it runs at once, like `insert`. If it fails (a unique key), the commit
   * fails and the whole transaction is rolled back, as if it had failed where it was called.
   */
  async insertAtCommit<T extends ObjectLiteral>(
    manager: EntityManager | undefined,
    target: EntityTarget<T>,
    values: T,
  ): Promise<void> {
    await this.runAtCommit(manager, this.shape(target).insertSql, this.values(target, values));
  }

  /**
   * `insertAtCommit` of several rows of one entity in one INSERT (one statement on SQLite, one text
   * at the COMMIT on PostgreSQL); nothing for none.
   */
  async insertManyAtCommit<T extends ObjectLiteral>(
    manager: EntityManager | undefined,
    target: EntityTarget<T>,
    rows: readonly T[],
  ): Promise<void> {
    if (rows.length <= 1) {
      if (rows.length === 1) await this.insertAtCommit(manager, target, rows[0]);
      return;
    }
    const shape = this.shape(target);
    const tuple = `(${shape.columns.map(() => '?').join(', ')})`;
    const sql = `${shape.insertSql}${`, ${tuple}`.repeat(rows.length - 1)}`;
    await this.runAtCommit(
      manager,
      sql,
      rows.flatMap((row) => this.values(target, row)),
    );
  }

  /** `TransactionRunner.run` on PostgreSQL: this transaction's `runAtCommit` statements wait for its COMMIT. */
  deferToCommit(runner: QueryRunner): void {
    if (this.fast) this.atCommit.set(runner, []);
  }

  /**
   * Commits `runner`'s transaction; its deferred statements go out in the same simple query as the
   * COMMIT (values written as literals: this protocol takes no parameters). If one fails,
   * PostgreSQL runs nothing after it and the caller rolls back as for any failed statement.
   */
  async commit(runner: QueryRunner): Promise<void> {
    const pending = this.atCommit.get(runner) ?? [];
    this.atCommit.delete(runner);
    if (pending.length === 0) return runner.commitTransaction();
    const client = pgClientOf(runner)!;
    const text = [...pending.map(({ sql, params }) => inlineParams(sql, params, client)), 'COMMIT'].join('; ');
    try {
      await client.query(text);
    } catch (error) {
      throw new QueryFailedError(text, [], error as Error);
    }
    markCommitted(runner);
  }

  /** The first row of a read, raw (column names as in the database). */
  async first(
    manager: EntityManager | undefined,
    sql: string,
    params: unknown[],
  ): Promise<Record<string, unknown> | undefined> {
    if (!this.fast)
      return (await this.viaRunner(manager, sql, params)).records[0] as Record<string, unknown> | undefined;
    if (!this.isPostgres)
      return this.sqlite(sql, params, (stmt) => stmt.get(...params) as Record<string, unknown> | undefined);
    const result = await this.pg(manager, sql, params);
    return result.records[0] as Record<string, unknown> | undefined;
  }

  /** One INSERT of every column of `values` (no read-back), converted as TypeORM would. */
  async insert<T extends ObjectLiteral>(
    manager: EntityManager | undefined,
    target: EntityTarget<T>,
    values: T,
  ): Promise<void> {
    // A copy: TypeORM writes generated and default columns back into what it inserts.
    if (!this.fast) await (manager ?? this.dataSource.manager).insert(target, { ...values });
    else await this.run(manager, this.shape(target).insertSql, this.values(target, values));
  }

  /** Every column value of `values`, converted, in the order of the INSERT text. */
  values<T extends ObjectLiteral>(target: EntityTarget<T>, values: T): unknown[] {
    return this.shape(target).columns.map((column) => this.toDatabase(column, column.getEntityValue(values)));
  }

  /**
   * PostgreSQL text of `TasksRepository.open`: parameters $1 amount, $2 account, $3 cap, then
   * every column of the ledger entry, then every column of the task (see `values`).
   */
  openSql(task: EntityTarget<unknown>, entry: EntityTarget<unknown>): string {
    const key = 'open';
    let sql = this.updateTexts.get(key);
    if (!sql) {
      const e = this.shape(entry);
      const t = this.shape(task);
      let n = 3;
      const typed = (c: ColumnMetadata) => `$${++n}::${pgType(c)}`;
      const names = (shape: EntityShape) => shape.columns.map((c) => `"${c.databaseName}"`).join(', ');
      sql =
        `WITH acct AS (UPDATE "accounts" SET "in_flight_tasks" = "in_flight_tasks" + 1, "balance" = "balance" - $1, "held" = "held" + $1 ` +
        `WHERE "id" = $2 AND "in_flight_tasks" < $3 AND "balance" >= $1 RETURNING "id"), ` +
        `e AS (INSERT INTO "${e.metadata.tableName}" (${names(e)}) SELECT ${e.columns.map(typed).join(', ')} FROM acct RETURNING 1), ` +
        `t AS (INSERT INTO "${t.metadata.tableName}" (${names(t)}) SELECT ${t.columns.map(typed).join(', ')} FROM acct RETURNING 1) ` +
        `SELECT (SELECT count(*) FROM t)::int AS opened, a."in_flight_tasks" >= $3 AS at_capacity FROM "accounts" a WHERE a."id" = $2`;
      this.updateTexts.set(key, sql);
    }
    return sql;
  }

  /**
   * `UPDATE <table> SET <changed columns> WHERE <where>`; `where` uses `?` placeholders filled from
   * `whereParams`. The SQL text is built once per set of changed columns.
   */
  async update<T extends ObjectLiteral>(
    manager: EntityManager | undefined,
    target: EntityTarget<T>,
    changes: Partial<T>,
    where: string,
    whereParams: unknown[],
  ): Promise<number> {
    const shape = this.shape(target);
    const keys = Object.keys(changes).filter((key) => (changes as Record<string, unknown>)[key] !== undefined);
    if (!this.fast) {
      const set = Object.fromEntries(keys.map((key) => [key, (changes as Record<string, unknown>)[key]]));
      const result = await (manager ?? this.dataSource.manager)
        .createQueryBuilder()
        .update(target)
        .set(set as never)
        .where(...namedParams(where, whereParams))
        .execute();
      return result.affected ?? 0;
    }
    const cacheKey = `${shape.metadata.tableName}|${where}|${keys.join(',')}`;
    let sql = this.updateTexts.get(cacheKey);
    if (!sql) {
      const sets = keys.map((key) => `"${this.column(shape, key).databaseName}" = ?`);
      sql = `UPDATE "${shape.metadata.tableName}" SET ${sets.join(', ')} WHERE ${where}`;
      this.updateTexts.set(cacheKey, sql);
    }
    const params = keys.map((key) =>
      this.toDatabase(this.column(shape, key), (changes as Record<string, unknown>)[key]),
    );
    return this.run(manager, sql, [...params, ...whereParams]);
  }

  /** `SELECT <every column> FROM <table> WHERE <where>`, hydrated into an entity. */
  async findOne<T extends ObjectLiteral>(
    manager: EntityManager | undefined,
    target: EntityTarget<T>,
    where: string,
    params: unknown[],
  ): Promise<T | null> {
    if (!this.fast)
      return (manager ?? this.dataSource.manager)
        .createQueryBuilder(target, 'e')
        .where(...namedParams(where, params))
        .getOne();
    const shape = this.shape(target);
    let sql = shape.selectTexts.get(where);
    if (sql === undefined) {
      sql = `SELECT ${shape.selectList} FROM "${shape.metadata.tableName}" WHERE ${where}`;
      shape.selectTexts.set(where, sql);
    }
    if (this.isPostgres) {
      const row = await this.first(manager, sql, params);
      return row ? this.hydrate(shape, row) : null;
    }
    // On SQLite the row comes as an array in select-list order: no object with a key per column
    // to build and then read back (docs/hand-written.md, "hot SQL").
    const values = this.sqliteRaw(sql, params);
    return values ? this.hydrateValues<T>(shape, values) : null;
  }

  /**
   * A write that returns the rows it changed, hydrated: `sql` is an UPDATE (or INSERT/DELETE) of
   * `target`'s table without its RETURNING clause, which is added here with every column.
   */
  async returning<T extends ObjectLiteral>(
    manager: EntityManager | undefined,
    target: EntityTarget<T>,
    sql: string,
    params: unknown[],
  ): Promise<T[]> {
    const shape = this.shape(target);
    if (!this.fast) return this.returningViaBuilder(manager, shape, sql, params);
    const text = `${sql} RETURNING ${shape.selectList}`;
    if (this.isPostgres)
      return ((await this.pg(manager, text, params)).records as Record<string, unknown>[]).map((row) =>
        this.hydrate<T>(shape, row),
      );
    const rows = await this.sqliteWrite(manager, text, params, (stmt) => stmt.all(...params) as unknown[][], true);
    return rows.map((values) => this.hydrateValues<T>(shape, values));
  }

  /** `returning` with fast paths off: the write returns the keys, the query builder reads the rows, in the same order. */
  private async returningViaBuilder<T extends ObjectLiteral>(
    manager: EntityManager | undefined,
    shape: EntityShape,
    sql: string,
    params: unknown[],
  ): Promise<T[]> {
    const [key] = shape.metadata.primaryColumns;
    const written = await this.viaRunner(manager, `${sql} RETURNING "${key.databaseName}"`, params);
    const ids = (written.records as Record<string, unknown>[]).map((row) => row[key.databaseName]);
    if (ids.length === 0) return [];
    const rows = await (manager ?? this.dataSource.manager)
      .createQueryBuilder(shape.metadata.target as EntityTarget<T>, 'e')
      .where(`e.${key.propertyName} IN (:...ids)`, { ids })
      .getMany();
    const byId = new Map(rows.map((row) => [key.getEntityValue(row), row]));
    return ids.map((id) => byId.get(id)).filter((row): row is T => row !== undefined);
  }

  /**
   * A statement through TypeORM's query runner: the transaction's when `manager` has one, else
   * (SQLite) the shared one or (PostgreSQL) one of the pool for this statement.
   */
  private async viaRunner(
    manager: EntityManager | undefined,
    sql: string,
    params: unknown[],
  ): Promise<{ affected?: number; records: unknown[] }> {
    const own = manager?.queryRunner && !manager.queryRunner.isReleased ? manager.queryRunner : undefined;
    const runner = own ?? this.dataSource.createQueryRunner();
    try {
      const result = await runner.query(this.isPostgres ? numbered(sql) : sql, params, true);
      return { affected: result.affected ?? undefined, records: result.records ?? [] };
    } finally {
      if (!own && this.isPostgres) await runner.release();
    }
  }

  private hydrateValues<T>(shape: EntityShape, values: unknown[]): T {
    if (shape.fromValues === undefined) {
      const dataSource = this.dataSource;
      shape.fromValues =
        compileSqliteHydrator(shape.metadata, shape.columns, hydratingDriver(dataSource)) ??
        ((row: unknown[]) => {
          const entity = shape.metadata.create() as Record<string, unknown>;
          shape.columns.forEach(
            (column, i) => (entity[column.propertyName] = hydratedValue(dataSource, row[i], column)),
          );
          return entity;
        });
    }
    return shape.fromValues(values) as T;
  }

  private hydrate<T>(shape: EntityShape, row: Record<string, unknown>): T {
    const entity = shape.metadata.create() as Record<string, unknown>;
    for (const column of shape.columns)
      entity[column.propertyName] = hydratedValue(this.dataSource, row[column.databaseName], column);
    return entity as T;
  }

  private toDatabase(column: ColumnMetadata, value: unknown): unknown {
    // A column left out takes its declared default, as TypeORM's insert does.
    if (value === undefined && column.default !== undefined && typeof column.default !== 'function')
      value = column.default;
    const converted = persistentValue(this.dataSource, value, column);
    return converted === undefined ? null : converted;
  }

  private column(shape: EntityShape, property: string): ColumnMetadata {
    const column = shape.byProperty.get(property);
    if (!column) throw new Error(`${shape.metadata.name} has no column for property ${property}`);
    return column;
  }

  private shape(target: EntityTarget<unknown>): EntityShape {
    let shape = this.shapes.get(target);
    if (!shape) {
      const metadata = this.dataSource.getMetadata(target);
      const columns = metadata.columns.filter((c) => !c.isVirtual && !c.relationMetadata);
      const names = columns.map((c) => `"${c.databaseName}"`);
      shape = {
        metadata,
        columns,
        byProperty: new Map(columns.map((c) => [c.propertyName, c])),
        insertSql: `INSERT INTO "${metadata.tableName}" (${names.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        selectList: names.join(', '),
        selectTexts: new Map(),
      };
      this.shapes.set(target, shape);
    }
    return shape;
  }

  /** The first row of a SQLite read as an array of column values (synchronous: better-sqlite3 is). */
  private sqliteRaw(sql: string, params: unknown[]): unknown[] | undefined {
    try {
      return this.statement(sql, true).get(...params) as unknown[] | undefined;
    } catch (error) {
      throw new QueryFailedError(sql, params, error as Error);
    }
  }

  /** `sql` prepared once on SQLite's connection; `raw`: its rows come as arrays in select-list order. */
  private statement(sql: string, raw: boolean): SqliteStatement {
    const cache = raw ? this.preparedRaw : this.prepared;
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = sqliteConnectionOf(this.dataSource).prepare(sql);
      if (raw) stmt = stmt.raw(true);
      cache.set(sql, stmt);
    }
    return stmt;
  }

  /**
   * A write on SQLite's one connection: at once when it belongs to the open transaction (its
   * manager is the transaction's) or none is open, else once that transaction has ended (see
   * `SqliteSerializer`: it would join it).
   */
  private sqliteWrite<R>(
    manager: EntityManager | undefined,
    sql: string,
    params: unknown[],
    exec: (stmt: SqliteStatement) => R,
    raw = false,
  ): Promise<R> {
    const serializer = (this.serializer ??= SqliteSerializer.of(this.dataSource));
    if (!serializer.holding || serializer.owns(manager)) return this.sqlite(sql, params, exec, raw);
    return serializer.outside(() => this.sqlite(sql, params, exec, raw));
  }

  private sqlite<R>(sql: string, params: unknown[], exec: (stmt: SqliteStatement) => R, raw = false): Promise<R> {
    try {
      return Promise.resolve(exec(this.statement(sql, raw)));
    } catch (error) {
      return Promise.reject(new QueryFailedError(sql, params, error as Error));
    }
  }

  /**
   * Straight to the pg client, past TypeORM's query runner (a query runner, a pool checkout and
   * query events per statement), as a named prepared statement: PostgreSQL parses and plans each
   * text once per connection instead of at every call (the create's CTE has ~50 parameters).
   * Inside a transaction the transaction's own client runs it.
   */
  private async pg(
    manager: EntityManager | undefined,
    sql: string,
    params: unknown[],
  ): Promise<{ affected?: number; records: unknown[] }> {
    let statement = this.pgStatements.get(sql);
    if (!statement) {
      statement = { name: `hot_${this.pgStatements.size + 1}`, text: numbered(sql) };
      this.pgStatements.set(sql, statement);
    }
    const client: PgQueryable = pgClientOf(manager?.queryRunner) ?? pgPoolOf(this.dataSource);
    try {
      const result = await client.query({ name: statement.name, text: statement.text, values: params });
      return { affected: result.rowCount ?? undefined, records: result.rows };
    } catch (error) {
      throw new QueryFailedError(statement.text, params, error as Error);
    }
  }
}

/** PostgreSQL's numbered placeholders for `?` ones. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** A `?` WHERE clause as the query builder takes it: named parameters and their values. */
function namedParams(where: string, params: unknown[]): [string, Record<string, unknown>] {
  let n = 0;
  const values: Record<string, unknown> = {};
  const text = where.replace(/\?/g, () => {
    values[`p${n}`] = params[n];
    return `:p${n++}`;
  });
  return [text, values];
}

/**
 * `?` placeholders of fixed SQL replaced by literals: whole numbers as digits, strings escaped by
 * the driver, NULL and booleans as keywords. Anything else (a fraction, a Date, a Buffer) is refused
 * rather than guessed at.
 */
export function inlineParams(sql: string, params: unknown[], client: PgLiterals): string {
  let i = 0;
  const text = sql.replace(/\?/g, () => {
    const value = params[i++];
    if (value === null) return 'NULL';
    if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    if (typeof value === 'string') return client.escapeLiteral(value);
    throw new Error(`runAtCommit takes whole numbers, strings, booleans and null only, got ${typeof value}`);
  });
  if (i !== params.length) throw new Error(`runAtCommit: ${params.length} values for ${i} placeholders`);
  return text;
}
