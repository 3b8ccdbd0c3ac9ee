import { join } from 'path';
import { AuditTrail } from '../../src/core/audit/audit.service';
import { Harness, startGateway } from '../support/gateway-harness';
import { eventually } from '../support/simulated-gateway';
import { tempDirs } from '../support/temp-dirs';

/**
 * An operator disabled, demoted or given a new token through one instance is refused by the other
 * at once when Redis is configured (the change is announced on Redis and every instance drops its
 * token cache); without Redis the other instance sees it within the cache TTL (5 s).
 */
const operatorsDir = tempDirs('gw-operators-');

describe('two instances: operator changes reach the other instance', () => {
  jest.setTimeout(30_000);
  const withRedis = Boolean(process.env.REDIS_URL);
  let a: Harness;
  let b: Harness;

  beforeAll(async () => {
    const onPostgres = (process.env.DATABASE_URL ?? '').startsWith('postgres');
    const shared: Record<string, string> = onPostgres
      ? {}
      : { DATABASE_URL: `sqlite:${join(operatorsDir(), 'gateway.sqlite')}` };
    a = await startGateway({ env: shared });
    b = await startGateway({ keepData: true, env: shared });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  /** B's answer to `request` becomes `status`: at once with Redis, else within the cache TTL. */
  async function becomesOnB(request: () => Promise<{ status: number }>, status: number): Promise<void> {
    if (withRedis) expect((await request()).status).toBe(status);
    else await eventually(async () => (await request()).status === status, 7000, 200);
  }

  it('a token disabled through A is refused by B', async () => {
    const op = await a.admin.operator('admin');
    const onB = b.admin.as(op.token);
    await onB.get('/admin/v1/me').expect(200);
    await a.admin.patch(`/admin/v1/operators/${op.id}`, { disabled: true }).expect(200);
    await becomesOnB(() => onB.get('/admin/v1/me'), 401);
  });

  it('a token rotated through A is refused by B, and the new one works there', async () => {
    const op = await a.admin.operator('viewer');
    const onB = b.admin.as(op.token);
    await onB.get('/admin/v1/me').expect(200);
    const rotated = await a.admin.post(`/admin/v1/operators/${op.id}/token`, {}).expect(200);
    await becomesOnB(() => onB.get('/admin/v1/me'), 401);
    await b.admin.as(rotated.body.token).get('/admin/v1/me').expect(200);
  });

  it('a role lowered through A is enforced by B', async () => {
    const op = await a.admin.operator('admin');
    const onB = b.admin.as(op.token);
    await onB.get('/admin/v1/ledger/verify').expect(200);
    await onB.post('/admin/v1/accounts', { name: 'allowed' }).expect(201);
    await a.admin.patch(`/admin/v1/operators/${op.id}`, { role: 'viewer' }).expect(200);
    await becomesOnB(() => onB.post('/admin/v1/accounts', { name: 'refused' }), 403);
  });

  it('both instances append to one audit chain without forking it', async () => {
    const admins = [a, b].map((gw) => gw.admin);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => admins[i % 2].post('/admin/v1/accounts', { name: `race ${i}` }).expect(201)),
    );
    const listed = await a.admin.get('/admin/v1/audit?action=account.create&limit=200').expect(200);
    const races = listed.body.items.filter((e: { after: { name: string } }) => e.after.name.startsWith('race '));
    expect(races).toHaveLength(12);
    expect(await a.app.get(AuditTrail).verify()).toMatchObject({ ok: true, problems: [] });
  });
});
