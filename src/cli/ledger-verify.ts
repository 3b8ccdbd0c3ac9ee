import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { existsSync } from 'fs';
import { LedgerService } from '../core/billing/ledger.service';
import { loadConfig } from '../platform/config/app-config';
import { DEFAULT_SQLITE_PATH } from '../platform/database/data-source-options';
import { LedgerVerifyModule } from './ledger-verify.module';

interface Output {
  write(text: string): unknown;
}

/**
 * `npm run ledger:verify`: proves balance = credits - debits - charges - open holds and
 * held = open holds for every account, from the ledger entries in DATABASE_URL (default
 * ./data/gateway.sqlite). Prints the same JSON as `GET /admin/v1/ledger/verify`.
 * Returns the exit code: 0 when the books reconcile, 1 when they do not or cannot be read.
 */
export async function runLedgerVerify(
  env: NodeJS.ProcessEnv = process.env,
  out: Output = process.stdout,
  err: Output = process.stderr,
): Promise<number> {
  let context: Awaited<ReturnType<typeof NestFactory.createApplicationContext>> | null = null;
  try {
    // Validated like the gateway's own setting; the database being audited is never migrated or created.
    const { DATABASE_URL } = loadConfig({ DATABASE_URL: env.DATABASE_URL });
    const sqlitePath = sqliteFile(DATABASE_URL);
    if (sqlitePath && !existsSync(sqlitePath)) throw new Error(`No database at ${sqlitePath} (set DATABASE_URL).`);
    context = await NestFactory.createApplicationContext(LedgerVerifyModule.forRoot(DATABASE_URL), {
      logger: false,
      abortOnError: false,
    });
    const result = await context.get(LedgerService).verify();
    out.write(`${JSON.stringify(result, null, 2)}\n`);
    if (!result.ok)
      err.write(`ledger:verify: ${result.mismatches.length} mismatch(es) in ${result.accounts_checked} account(s)\n`);
    return result.ok ? 0 : 1;
  } catch (error) {
    err.write(`ledger:verify failed: ${error instanceof Error ? error.message : String(error)}\n`);
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

if (require.main === module) {
  void runLedgerVerify().then((code) => {
    process.exitCode = code;
  });
}
