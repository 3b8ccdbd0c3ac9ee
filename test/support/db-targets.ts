import { DataSource } from 'typeorm';
import { EntityClass, dataSourceOptions } from '../../src/platform/database/data-source-options';

/**
 * The databases a repository spec runs on: SQLite in memory always, and PostgreSQL in CI's second
 * pass (DATABASE_URL) or with TEST_PG_URL.
 */
export function databaseTargets(): Array<[string, string]> {
  const targets: Array<[string, string]> = [['SQLite', 'sqlite::memory:']];
  const pgUrl =
    process.env.TEST_PG_URL ??
    (process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined);
  if (pgUrl) targets.push(['PostgreSQL', pgUrl]);
  return targets;
}

/** A PostgreSQL target starts from an empty schema, as the e2e harness does; SQLite in memory already does. */
async function emptySchema(url: string): Promise<void> {
  if (!url.startsWith('postgres')) return;
  const reset = new DataSource({ type: 'postgres', url });
  await reset.initialize();
  await reset.query('DROP SCHEMA IF EXISTS public CASCADE');
  await reset.query('CREATE SCHEMA public');
  await reset.destroy();
}

/**
 * A repository spec's data source on an empty schema: the gateway's own options, with a wait for a connection long
 * enough that a stall of a busy two-core CI machine never fails a test that is not about that wait (the gateway's
 * default is 1.5 s).
 */
export async function openTestDataSource(url: string, entities: EntityClass[]): Promise<DataSource> {
  await emptySchema(url);
  const ds = new DataSource(dataSourceOptions(url, true, entities, { connectTimeoutMs: 10_000 }));
  await ds.initialize();
  return ds;
}
