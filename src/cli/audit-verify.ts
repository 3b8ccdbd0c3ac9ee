import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from '../core/audit/audit.module';
import { AuditTrail } from '../core/audit/audit.service';
import { CliPlatformModule } from './ledger-verify.module';
import { Output, runVerifyCommand } from './verify-command';

/** What `npm run audit:verify` boots: the admin API's own AuditTrail on the given database. */
@Module({})
export class AuditVerifyModule {
  static forRoot(databaseUrl: string | undefined): DynamicModule {
    return { module: AuditVerifyModule, imports: [CliPlatformModule.forRoot(databaseUrl), AuditModule] };
  }
}

/**
 * `npm run audit:verify`: walks the audit trail in DATABASE_URL (default ./data/gateway.sqlite)
 * and proves every entry is there, unchanged, in its place in the hash chain, up to the chain head.
 * Returns the exit code: 0 when the chain holds, 1 when an entry was changed or removed (each
 * problem named by its position) or the trail cannot be read.
 */
export function runAuditVerify(
  env: NodeJS.ProcessEnv = process.env,
  out: Output = process.stdout,
  err: Output = process.stderr,
): Promise<number> {
  return runVerifyCommand(
    {
      name: 'audit:verify',
      module: (databaseUrl) => AuditVerifyModule.forRoot(databaseUrl),
      verify: (context) => context.get(AuditTrail).verify(),
      failure: (result) => `${result.problems.length} problem(s) in ${result.entries_checked} entries`,
    },
    env,
    out,
    err,
  );
}

if (require.main === module) {
  void runAuditVerify().then((code) => {
    process.exitCode = code;
  });
}
