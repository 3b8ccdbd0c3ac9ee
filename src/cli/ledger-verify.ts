import { LedgerService } from '../core/billing/ledger.service';
import { LedgerVerifyModule } from './ledger-verify.module';
import { Output, runVerifyCommand } from './verify-command';

/**
 * `npm run ledger:verify`: proves balance = credits - debits - charges - open holds and
 * held = open holds for every account, from the ledger entries in DATABASE_URL (default
 * ./data/gateway.sqlite). Prints the same JSON as `GET /admin/v1/ledger/verify`.
 * Returns the exit code: 0 when the books reconcile, 1 when they do not or cannot be read.
 */
export function runLedgerVerify(
  env: NodeJS.ProcessEnv = process.env,
  out: Output = process.stdout,
  err: Output = process.stderr,
): Promise<number> {
  return runVerifyCommand(
    {
      name: 'ledger:verify',
      module: (databaseUrl) => LedgerVerifyModule.forRoot(databaseUrl),
      verify: (context) => context.get(LedgerService).verify(),
      failure: (result) => `${result.mismatches.length} mismatch(es) in ${result.accounts_checked} account(s)`,
    },
    env,
    out,
    err,
  );
}

if (require.main === module) {
  void runLedgerVerify().then((code) => {
    process.exitCode = code;
  });
}
