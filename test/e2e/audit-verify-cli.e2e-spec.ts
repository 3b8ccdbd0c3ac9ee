import { join } from 'path';
import { DataSource, Repository } from 'typeorm';
import { runAuditVerify } from '../../src/cli/audit-verify';
import { entryHash } from '../../src/core/audit/audit-chain';
import { AuditChainHeadEntity } from '../../src/core/audit/audit-chain-head.entity';
import { AuditEntryEntity } from '../../src/core/audit/audit-entry.entity';
import { Harness, startGateway } from '../support/gateway-harness';
import { tempDirs } from '../support/temp-dirs';

/** `npm run audit:verify`: its main function against a real database, both exit codes. */
async function verifyCli(databaseUrl: string, recordedHead?: string) {
  let stdout = '';
  let stderr = '';
  const code = await runAuditVerify(
    { DATABASE_URL: databaseUrl, AUDIT_RECORDED_HEAD: recordedHead },
    { write: (t: string) => (stdout += t) },
    { write: (t: string) => (stderr += t) },
  );
  return { code, report: JSON.parse(stdout || 'null'), stderr };
}

const auditDir = tempDirs('audit-cli-');

describe('npm run audit:verify', () => {
  let gw: Harness;
  let databaseUrl: string;
  let entries: Repository<AuditEntryEntity>;

  beforeEach(async () => {
    // PostgreSQL in the PostgreSQL pass, else a SQLite file (the CLI reads it through its own connection).
    databaseUrl = process.env.DATABASE_URL?.startsWith('postgres')
      ? process.env.DATABASE_URL
      : `sqlite:${join(auditDir(), 'gateway.sqlite')}`;
    gw = await startGateway({ env: { DATABASE_URL: databaseUrl } });
    entries = gw.app.get(DataSource).getRepository(AuditEntryEntity);
    // Five entries of several kinds.
    const admin = (await gw.admin.operator('admin')).client;
    const acct = (await admin.post('/admin/v1/accounts', { name: 'Acme', balance: 100 }).expect(201)).body.id;
    await admin.post(`/admin/v1/accounts/${acct}/balance`, { delta: 50, reason: 'top-up' }).expect(200);
    await admin.patch(`/admin/v1/accounts/${acct}`, { name: 'Acme Ltd' }).expect(200);
    await admin.post(`/admin/v1/accounts/${acct}/keys`, {}).expect(201);
  });
  afterEach(() => gw.close());

  it('exit 0 on an untouched trail; exit 1 naming the entry once a row is changed', async () => {
    const good = await verifyCli(databaseUrl);
    const head = await entries.findOneByOrFail({ seq: 5 });
    expect(good).toEqual({
      code: 0,
      report: { ok: true, entries_checked: 5, problems: [], head: { seq: 5, hash: head.hash } },
      stderr: '',
    });

    const third = await entries.findOneByOrFail({ seq: 3 });
    await entries.update({ seq: 3 }, { after: third.after!.replace('"balance":150', '"balance":999150') });
    const bad = await verifyCli(databaseUrl);
    expect(bad.code).toBe(1);
    expect(bad.report).toMatchObject({ ok: false, entries_checked: 5 });
    expect(bad.report.problems).toEqual([
      { seq: 3, entry_id: third.id, problem: 'its content does not match its hash' },
    ]);
    expect(bad.stderr).toMatch(/^audit:verify: 1 problem/);
  });

  it('finds a row changed with its own hash recomputed: the next row no longer links to it', async () => {
    const second = await entries.findOneByOrFail({ seq: 2 });
    const forged = { ...second, actorName: 'someone else' };
    await entries.update({ seq: 2 }, { actorName: forged.actorName, hash: entryHash(forged) });
    const bad = await verifyCli(databaseUrl);
    expect(bad.code).toBe(1);
    expect(bad.report.problems).toEqual([
      { seq: 3, entry_id: expect.any(String), problem: expect.stringContaining('does not link') },
    ]);
  });

  it('finds a row removed from the middle, and the newest row removed', async () => {
    await entries.delete({ seq: 2 });
    expect((await verifyCli(databaseUrl)).report.problems).toEqual([
      { seq: 2, entry_id: null, problem: 'entry 2 is missing' },
    ]);
    await entries.delete({ seq: 5 });
    const bad = await verifyCli(databaseUrl);
    expect(bad.code).toBe(1);
    expect(bad.report.problems).toEqual([
      { seq: 2, entry_id: null, problem: 'entry 2 is missing' },
      { seq: 5, entry_id: null, problem: 'entry 5 is missing' },
    ]);
  });

  it('with a head recorded earlier, finds the newest entries cut and the chain head rewound over them', async () => {
    const recorded = (await verifyCli(databaseUrl)).report.head as { seq: number; hash: string };
    const asRecorded = `${recorded.seq}:${recorded.hash}`;
    expect((await verifyCli(databaseUrl, asRecorded)).code).toBe(0);

    // Cut the two newest entries and move the head back: consistent on its own, caught by the recorded head.
    const third = await entries.findOneByOrFail({ seq: 3 });
    await entries.delete({ seq: 4 });
    await entries.delete({ seq: 5 });
    await gw.app.get(DataSource).getRepository(AuditChainHeadEntity).update({ id: 1 }, { seq: 3, hash: third.hash });
    expect((await verifyCli(databaseUrl)).code).toBe(0);
    const cut = await verifyCli(databaseUrl, asRecorded);
    expect(cut.code).toBe(1);
    expect(cut.report.problems).toEqual([
      { seq: 4, entry_id: null, problem: expect.stringContaining('the newest entries were removed') },
    ]);

    const malformed = await verifyCli(databaseUrl, 'latest');
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/AUDIT_RECORDED_HEAD must be <seq>:<hash>/);
  });
});
