import { DynamicModule, Module } from '@nestjs/common';
import type { ChainHead } from '../core/audit/audit-chain';
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
 * A chain head an earlier run printed, given back as `AUDIT_RECORDED_HEAD=<seq>:<hash>`: the chain
 * must still reach it, unchanged. Undefined when the variable is unset.
 */
export function recordedHead(value: string | undefined): ChainHead | undefined {
  if (value === undefined || value === '') return undefined;
  const match = /^(\d{1,15}):([0-9a-f]{64})$/.exec(value.trim());
  if (!match) throw new Error('AUDIT_RECORDED_HEAD must be <seq>:<hash>, as an earlier run printed them.');
  return { seq: Number(match[1]), hash: match[2] };
}

/**
 * `npm run audit:verify`: walks the audit trail in DATABASE_URL (default ./data/gateway.sqlite)
 * and proves every entry is there, unchanged, in its place in the hash chain, up to the chain head,
 * and, with AUDIT_RECORDED_HEAD, that the chain still holds a head recorded earlier. Returns the
 * exit code: 0 when the chain holds, 1 when an entry was changed or removed (each problem named by
 * its position) or the trail cannot be read.
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
      verify: (context) => context.get(AuditTrail).verify(recordedHead(env.AUDIT_RECORDED_HEAD)),
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
