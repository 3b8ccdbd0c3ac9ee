import { mkdirSync } from 'fs';
import { dirname } from 'path';
import { DataSourceOptions, MigrationInterface } from 'typeorm';
import { InitialSchema1763900000000 } from './migrations/1763900000000-initial-schema';
import { ReconciliationIndexes1764000000000 } from './migrations/1764000000000-reconciliation-indexes';
import { OneActionName1764100000000 } from './migrations/1764100000000-one-action-name';
import { IdempotencyTask1764400000000 } from './migrations/1764400000000-idempotency-task';
import { LeanTaskIndexes1764500000000 } from './migrations/1764500000000-lean-task-indexes';
import { CallbackTokenIndex1764600000000 } from './migrations/1764600000000-callback-token-index';
import { ResultFiles1764700000000 } from './migrations/1764700000000-result-files';
import { TaskTraceContext1764800000000 } from './migrations/1764800000000-task-trace-context';
import { ChannelSettings1764960000000 } from './migrations/1764960000000-channel-settings';
import { TaskDeletedAt1765000000000 } from './migrations/1765000000000-task-deleted-at';
import { OperatorsAudit1765100000000 } from './migrations/1765100000000-operators-audit';
import { OperatorSessions1765200000000 } from './migrations/1765200000000-operator-sessions';
import { ChannelPriority1765340000000 } from './migrations/1765340000000-channel-priority';

export type MigrationClass = new () => MigrationInterface;
export type EntityClass = new () => object;

/** The tables the core owns; each family brings its own (`FamilyDefinition.migrations`). */
export const CORE_MIGRATIONS: readonly MigrationClass[] = [
  InitialSchema1763900000000,
  ReconciliationIndexes1764000000000,
  OneActionName1764100000000,
  IdempotencyTask1764400000000,
  LeanTaskIndexes1764500000000,
  CallbackTokenIndex1764600000000,
  ResultFiles1764700000000,
  TaskTraceContext1764800000000,
  ChannelSettings1764960000000,
  TaskDeletedAt1765000000000,
  OperatorsAudit1765100000000,
  OperatorSessions1765200000000,
  ChannelPriority1765340000000,
];

/**
 * Core and family migrations in one list, by the timestamp their class name ends in (the order
 * they were written in, which existing databases ran them in). Throws on a name without one.
 */
export function migrationsInOrder(migrations: readonly MigrationClass[]): MigrationClass[] {
  const stamped = [...new Set(migrations)].map((migration) => {
    const match = /(\d{13})$/.exec(migration.name);
    if (!match) throw new Error(`Migration ${migration.name} does not end in a 13-digit timestamp.`);
    return { migration, at: Number(match[1]) };
  });
  return stamped.sort((a, b) => a.at - b.at).map(({ migration }) => migration);
}

export const DEFAULT_SQLITE_PATH = './data/gateway.sqlite';
/** PostgreSQL connections per instance unless DATABASE_POOL_SIZE says otherwise. */
export const DEFAULT_PG_POOL_SIZE = 20;
/**
 * How long a statement waits for a PostgreSQL connection (a free one of the pool, or a new one)
 * unless DATABASE_CONNECT_TIMEOUT_MS says otherwise. Past it the request is answered 503 with
 * Retry-After: a database that is down or saturated never holds a client longer than this.
 */
export const DEFAULT_PG_CONNECT_TIMEOUT_MS = 1500;

/** The PostgreSQL pool of one instance. */
export interface PgPoolOptions {
  size?: number;
  connectTimeoutMs?: number;
}

/**
 * TypeORM options from DATABASE_URL: `sqlite:<path>` (default ./data/gateway.sqlite) or `postgres://…`
 * (a pool of `pool.size` connections, each waited for at most `pool.connectTimeoutMs`).
 * Entities are registered by the modules that own them (`forFeature` + `autoLoadEntities`); the
 * TypeORM CLI passes its own list. `migrations`: the core's unless the caller adds the families'.
 */
export function dataSourceOptions(
  databaseUrl: string | undefined,
  migrationsRun = true,
  entities: NonNullable<DataSourceOptions['entities']> = [],
  pool: PgPoolOptions = {},
  migrations: readonly MigrationClass[] = CORE_MIGRATIONS,
): DataSourceOptions {
  const ordered = migrationsInOrder(migrations);
  const common = { entities, migrations: ordered, migrationsRun, synchronize: false, logging: false } as const;
  if (databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl)) {
    const extra = {
      max: pool.size ?? DEFAULT_PG_POOL_SIZE,
      connectionTimeoutMillis: pool.connectTimeoutMs ?? DEFAULT_PG_CONNECT_TIMEOUT_MS,
    };
    return { ...common, type: 'postgres', url: databaseUrl, extra };
  }
  const path = databaseUrl ? databaseUrl.replace(/^sqlite:/, '') : DEFAULT_SQLITE_PATH;
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: path,
    // WAL lets readers run beside the writer; busy_timeout waits instead of failing on a lock.
    // cache_size stays better-sqlite3's 16 MB: a smaller cache made creates slower
    // (docs/benchmarks.md, "Durability (SQLite)").
    prepareDatabase: (db: { pragma(s: string): unknown }) => {
      if (path !== ':memory:') db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
      db.pragma('synchronous = NORMAL');
    },
  };
}

export function isPostgres(options: DataSourceOptions): boolean {
  return options.type === 'postgres';
}
