import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { runLedgerVerify } from '../../src/cli/ledger-verify';
import { AccountEntity } from '../../src/core/accounts/entities/account.entity';
import { Harness } from '../support/gateway-harness';
import { bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';
import { tempDirs } from '../support/temp-dirs';

/** `npm run ledger:verify`: its main function against a real database, both exit codes. */
const CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const axBody = (prompt: string) => ({
  model: 'wx2.7-r2v',
  input: { prompt, media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
  parameters: { resolution: '720P', duration: 5 },
});

/** Runs the command's main function, capturing what it prints. */
async function verifyCli(databaseUrl: string) {
  let stdout = '';
  let stderr = '';
  const code = await runLedgerVerify(
    { DATABASE_URL: databaseUrl },
    { write: (t: string) => (stdout += t) },
    { write: (t: string) => (stderr += t) },
  );
  return { code, stdout, stderr };
}

/** Books with every kind of entry: credits, a debit, a settled task and a task still holding. */
async function writeBooks(gw: Harness): Promise<string> {
  const acct = await gw.admin.account({ models: ['wx2.7-r2v'], balance: 1_000_000 });
  await gw.admin.post(`/admin/v1/accounts/${acct.id}/balance`, { delta: -1000, reason: 'refund' }).expect(200);
  const done = await gw
    .http()
    .post(CREATE)
    .set(...bearer(acct))
    .send(axBody('Image 1 walks'))
    .expect(200);
  await gw
    .http()
    .post(CREATE)
    .set(...bearer(acct))
    .send(axBody('Image 1 waits sim:slow'))
    .expect(200);
  await eventually(async () =>
    (await gw.admin.get(`/admin/v1/usage?account_id=${acct.id}`)).body.items.some(
      (u: { task_id: string }) => u.task_id === done.body.output.task_id,
    ),
  );
  return acct.id;
}

async function corruptBalance(dataSource: DataSource, accountId: string) {
  await dataSource.getRepository(AccountEntity).increment({ id: accountId }, 'balance', 1);
}

const ledgerDir = tempDirs('ledger-cli-');

describe('npm run ledger:verify', () => {
  it('on the suite’s database beside a running gateway: exit 0 with the admin API’s verdict, exit 1 once a balance is corrupted', async () => {
    // PostgreSQL in the PostgreSQL pass, else a SQLite file (the CLI reads it through its own connection).
    const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres')
      ? process.env.DATABASE_URL
      : `sqlite:${join(ledgerDir(), 'gateway.sqlite')}`;
    const gw = await startSimulatedGateway({ env: { DATABASE_URL: databaseUrl } });
    try {
      const accountId = await writeBooks(gw);
      const fromApi = (await gw.admin.get('/admin/v1/ledger/verify').expect(200)).body;
      expect(fromApi).toMatchObject({ ok: true, accounts_checked: 1, mismatches: [] });

      const good = await verifyCli(databaseUrl);
      expect(good.code).toBe(0);
      expect(JSON.parse(good.stdout)).toMatchObject({ ok: true, accounts_checked: 1, mismatches: [] });
      expect(good.stderr).toBe('');

      await corruptBalance(gw.app.get(DataSource), accountId);
      const bad = await verifyCli(databaseUrl);
      expect(bad.code).toBe(1);
      const report = JSON.parse(bad.stdout);
      expect(report).toMatchObject({
        ok: false,
        accounts_checked: 1,
        mismatches: [{ account_id: accountId, field: 'balance' }],
      });
      expect(report.mismatches[0].stored - report.mismatches[0].expected).toBe(1);
      expect(bad.stderr).toContain('1 mismatch');
    } finally {
      await gw.close();
    }
  });

  it('exit 1 with a message when the database cannot be read', async () => {
    const missing = await verifyCli(`sqlite:${join(tmpdir(), 'no-such-dir-ledger', 'gateway.sqlite')}`);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toContain('No database at');
    const malformed = await verifyCli('mysql://nope');
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('DATABASE_URL');
  });
});
