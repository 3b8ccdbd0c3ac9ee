import 'reflect-metadata';
import { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { existsSync } from 'fs';
import { loadConfig } from '../platform/config/app-config';
import { DEFAULT_SQLITE_PATH } from '../platform/database/data-source-options';

export interface Output {
  write(text: string): unknown;
}

/** What a verifying command proves, from its own Nest context on the database. */
export interface VerifyCommand<R extends { ok: boolean }> {
  /** The npm script's name, for its messages. */
  name: string;
  module(databaseUrl: string | undefined): DynamicModule;
  verify(context: INestApplicationContext): Promise<R>;
  /** The line written to stderr when the proof fails. */
  failure(result: R): string;
}

/**
 * Runs a verifying command against DATABASE_URL (default ./data/gateway.sqlite), printing its JSON
 * verdict. Returns the exit code: 0 when the proof holds, 1 when it does not or cannot be read.
 */
export async function runVerifyCommand<R extends { ok: boolean }>(
  command: VerifyCommand<R>,
  env: NodeJS.ProcessEnv,
  out: Output,
  err: Output,
): Promise<number> {
  let context: INestApplicationContext | null = null;
  try {
    // Validated like the gateway's own setting; the database being audited is never migrated or created.
    const { DATABASE_URL } = loadConfig({ DATABASE_URL: env.DATABASE_URL });
    const sqlitePath = sqliteFile(DATABASE_URL);
    if (sqlitePath && !existsSync(sqlitePath)) throw new Error(`No database at ${sqlitePath} (set DATABASE_URL).`);
    context = await NestFactory.createApplicationContext(command.module(DATABASE_URL), {
      logger: false,
      abortOnError: false,
    });
    const result = await command.verify(context);
    out.write(`${JSON.stringify(result, null, 2)}\n`);
    if (!result.ok) err.write(`${command.name}: ${command.failure(result)}\n`);
    return result.ok ? 0 : 1;
  } catch (error) {
    err.write(`${command.name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await context?.close().catch(() => undefined);
  }
}

/** The SQLite file DATABASE_URL names (undefined for PostgreSQL and in-memory). */
function sqliteFile(databaseUrl: string | undefined): string | undefined {
  if (!databaseUrl) return DEFAULT_SQLITE_PATH;
  if (!databaseUrl.startsWith('sqlite:')) return undefined;
  const path = databaseUrl.slice('sqlite:'.length);
  return path === ':memory:' ? undefined : path;
}
