import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { AuditChainHeadEntity } from '../../src/core/audit/audit-chain-head.entity';
import { ADMIN_TOKEN, AdminClient, Harness, startGateway } from '../support/gateway-harness';
import { SimulatedGateway, startSimulatedGateway } from '../support/simulated-gateway';

type Entry = {
  id: string;
  at: string;
  actor: { id: string; name: string; role: string };
  action: string;
  target: { type: string; id: string; account_id: string | null };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  request_id: string | null;
  ip: string | null;
};

describe('admin API: the audit trail', () => {
  let gw: SimulatedGateway;
  let admin: { id: string; token: string; client: AdminClient };
  let operator: { id: string; token: string; client: AdminClient };

  beforeAll(async () => {
    gw = await startSimulatedGateway();
    admin = await gw.admin.operator('admin', 'Ada Admin');
    operator = await gw.admin.operator('operator', 'Otto Operator');
  });
  afterAll(() => gw.close());

  /** The one entry the change answered by `res` wrote: found by its request ID. */
  async function entryOf(res: Response, action: string): Promise<Entry> {
    const requestId = res.headers['x-request-id'];
    expect(requestId).toBeTruthy();
    const page = await gw.admin.get(`/admin/v1/audit?action=${action}&limit=200`).expect(200);
    const entries = (page.body.items as Entry[]).filter((e) => e.request_id === requestId);
    expect(entries).toHaveLength(1);
    return entries[0];
  }

  const byAdmin = { id: expect.stringMatching(/^op_/), name: 'Ada Admin', role: 'admin' };

  it('records each kind of account change with its actor, target, before and after, never a secret', async () => {
    const created = await admin.client.post('/admin/v1/accounts', { name: 'Acme', balance: 5000 }).expect(201);
    const acct = created.body.id as string;
    const create = await entryOf(created, 'account.create');
    expect(create).toMatchObject({
      id: expect.stringMatching(/^aud_/),
      actor: byAdmin,
      target: { type: 'account', id: acct },
      before: null,
      after: { id: acct, name: 'Acme', balance: 5000, disabled: false },
      ip: expect.any(String),
    });
    expect(Date.parse(create.at)).not.toBeNaN();

    const updated = await admin.client
      .patch(`/admin/v1/accounts/${acct}`, { name: 'Acme Ltd', disabled: true })
      .expect(200);
    expect(await entryOf(updated, 'account.update')).toMatchObject({
      actor: byAdmin,
      target: { type: 'account', id: acct },
      before: { name: 'Acme', disabled: false },
      after: { name: 'Acme Ltd', disabled: true },
    });

    const credited = await admin.client
      .post(`/admin/v1/accounts/${acct}/balance`, { delta: -1500, reason: 'refund' })
      .expect(200);
    expect(await entryOf(credited, 'balance.adjust')).toMatchObject({
      target: { type: 'account', id: acct },
      before: { balance: 5000 },
      after: { balance: 3500, delta: -1500, reason: 'refund' },
    });

    const granted = await admin.client
      .put(`/admin/v1/accounts/${acct}/models`, { models: [{ model: 'vdq3' }] })
      .expect(200);
    expect(await entryOf(granted, 'grant.update')).toMatchObject({
      target: { type: 'account', id: acct },
      before: { models: [] },
      after: { models: [{ model: 'vdq3', capabilities: ['reference2video'] }] },
    });

    const issued = await admin.client.post(`/admin/v1/accounts/${acct}/keys`, { name: 'ci' }).expect(201);
    const keyEntry = await entryOf(issued, 'key.create');
    expect(keyEntry).toMatchObject({
      target: { type: 'key', id: issued.body.id },
      after: { account_id: acct, name: 'ci', prefix: issued.body.prefix, revoked_at: null },
    });

    const revoked = await admin.client.delete(`/admin/v1/keys/${issued.body.id}`).expect(200);
    expect(await entryOf(revoked, 'key.revoke')).toMatchObject({
      target: { type: 'key', id: issued.body.id },
      before: { revoked_at: null },
      after: { revoked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) },
    });

    // The account's whole story, its keys' included, is one filter.
    const story = (await gw.admin.get(`/admin/v1/audit?account_id=${acct}`).expect(200)).body.items as Entry[];
    expect(story.map((e) => e.action)).toEqual([
      'key.revoke',
      'key.create',
      'grant.update',
      'balance.adjust',
      'account.update',
      'account.create',
    ]);
    expect(story[0].target).toEqual({ type: 'key', id: issued.body.id, account_id: acct });

    // No secret of the account, its key or any operator is anywhere in the trail.
    const trail = JSON.stringify((await gw.admin.get('/admin/v1/audit?limit=200').expect(200)).body);
    const account = await gw.admin.get(`/admin/v1/accounts/${acct}`).expect(200);
    for (const secret of [account.body.webhook_secret, issued.body.key, admin.token, operator.token])
      expect(trail).not.toContain(secret);
  });

  it('records price, channel and operator changes', async () => {
    const table = (await admin.client.get('/admin/v1/prices').expect(200)).body;
    const priced = await admin.client.put('/admin/v1/prices', table).expect(200);
    expect(await entryOf(priced, 'price.update')).toMatchObject({
      actor: byAdmin,
      target: { type: 'prices', id: 'table' },
      before: { version: table.version },
      after: { version: priced.body.version },
    });

    const [channel] = (await gw.admin.get('/admin/v1/channels').expect(200)).body.data as Array<{ id: string }>;
    const switched = await operator.client.patch(`/admin/v1/channels/${channel.id}`, { enabled: false }).expect(200);
    expect(await entryOf(switched, 'channel.update')).toMatchObject({
      actor: { name: 'Otto Operator', role: 'operator' },
      target: { type: 'channel', id: channel.id },
      before: { enabled: true },
      after: { enabled: false },
    });
    await gw.admin.patch(`/admin/v1/channels/${channel.id}`, { enabled: true }).expect(200);

    const added = await gw.admin.post('/admin/v1/operators', { name: 'Vic', role: 'viewer' }).expect(201);
    const owner = { id: 'bootstrap', name: 'bootstrap owner (ADMIN_TOKEN)', role: 'owner' };
    expect(await entryOf(added, 'operator.create')).toMatchObject({
      actor: owner,
      target: { type: 'operator', id: added.body.id },
      after: { name: 'Vic', role: 'viewer', token_prefix: added.body.token_prefix },
    });
    const promoted = await gw.admin.patch(`/admin/v1/operators/${added.body.id}`, { role: 'operator' }).expect(200);
    expect(await entryOf(promoted, 'operator.update')).toMatchObject({
      before: { role: 'viewer' },
      after: { role: 'operator' },
    });
    const rotated = await gw.admin.post(`/admin/v1/operators/${added.body.id}/token`, {}).expect(200);
    const rotation = await entryOf(rotated, 'operator.token_rotate');
    expect(rotation.after).toMatchObject({ token_prefix: rotated.body.token_prefix });
    expect(JSON.stringify(rotation)).not.toContain(rotated.body.token);
  });

  it('a refused or failed change writes no entry', async () => {
    const count = async () => (await gw.admin.get('/admin/v1/audit?limit=200').expect(200)).body.items.length;
    const before = await count();
    const acct = (await admin.client.post('/admin/v1/accounts', { name: 'Poor', balance: 10 }).expect(201)).body.id;
    await admin.client.post(`/admin/v1/accounts/${acct}/balance`, { delta: -11, reason: 'too much' }).expect(400);
    await admin.client.patch('/admin/v1/accounts/acct_unknown', { name: 'x' }).expect(404);
    await operator.client.post('/admin/v1/accounts', { name: 'not mine' }).expect(403);
    await admin.client.put(`/admin/v1/accounts/${acct}/models`, { models: [{ model: 'nope' }] }).expect(404);
    expect(await count()).toBe(before + 1);
  });

  it('filters by actor, action, target and time, pages with a cursor, and exports CSV', async () => {
    const acct = (await admin.client.post('/admin/v1/accounts', { name: 'Pager' }).expect(201)).body.id as string;
    for (const rpm of [10, 20, 30])
      await admin.client.patch(`/admin/v1/accounts/${acct}`, { rate_limit_rpm: rpm }).expect(200);
    const target = `target_type=account&target_id=${acct}`;
    const all = (await gw.admin.get(`/admin/v1/audit?${target}`).expect(200)).body.items as Entry[];
    expect(all.map((e) => e.action)).toEqual(['account.update', 'account.update', 'account.update', 'account.create']);
    expect(all.map((e) => e.after?.rate_limit_rpm)).toEqual([30, 20, 10, null]);

    const first = await gw.admin.get(`/admin/v1/audit?${target}&limit=3`).expect(200);
    expect(first.body.items).toHaveLength(3);
    const second = await gw.admin.get(`/admin/v1/audit?${target}&limit=3&cursor=${first.body.next_cursor}`);
    expect(second.body).toMatchObject({ items: [{ action: 'account.create' }], next_cursor: null });

    const mine = (await gw.admin.get(`/admin/v1/audit?actor=${admin.id}&limit=200`).expect(200)).body.items;
    expect(mine.length).toBeGreaterThanOrEqual(4);
    expect(mine.every((e: Entry) => e.actor.id === admin.id)).toBe(true);
    const future = await gw.admin.get(`/admin/v1/audit?from=${Math.ceil(Date.now() / 1000) + 60}`).expect(200);
    expect(future.body.items).toEqual([]);
    const since = new Date(Date.parse(all[3].at)).toISOString();
    expect((await gw.admin.get(`/admin/v1/audit?${target}&from=${since}`).expect(200)).body.items).toHaveLength(4);

    const bad = await gw.admin.get('/admin/v1/audit?action=account.explode').expect(400);
    expect(bad.body.error).toMatchObject({ param: 'action' });
    // A filter that could match nothing is a mistake, named: never an empty page.
    for (const [query, param] of [
      ['account_id=Pager', 'account_id'],
      ['target_type=bogus', 'target_type'],
      ['actor=Dana', 'actor'],
    ]) {
      const refused = await gw.admin.get(`/admin/v1/audit?${query}`).expect(400);
      expect(refused.body.error).toMatchObject({ code: 'invalid_request', param });
    }
    const cancels = await gw.admin.get('/admin/v1/audit?target_type=task&actor=bootstrap').expect(200);
    expect(cancels.body.items.every((e: Entry) => e.target.type === 'task')).toBe(true);
    await gw.admin.get('/admin/v1/audit?from=2026-02-30').expect(400);
    await gw.admin.get('/admin/v1/audit?cursor=nonsense').expect(400);

    const csv = await gw.admin.get(`/admin/v1/audit?${target}`).set('Accept', 'text/csv').expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,seq,at,actor_id,actor_name,actor_role,action,target_type,target_id,account_id,before,after,request_id,ip',
    );
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(all.map((e) => e.id));
  });

  it('exports a name a spreadsheet would run as a formula after a quote mark', async () => {
    const { client } = await gw.admin.operator('admin', '=HYPERLINK("http://evil.example","x")');
    await client.post('/admin/v1/accounts', { name: '@SUM(1+1)' }).expect(201);
    const csv = await gw.admin.get('/admin/v1/audit?format=csv&limit=200').expect(200);
    expect(csv.text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csv.text).not.toMatch(/(^|,)"?[=@]/m);
  });

  it('is append-only: no route changes or removes an entry', async () => {
    const [entry] = (await gw.admin.get('/admin/v1/audit?limit=1').expect(200)).body.items as Entry[];
    for (const method of ['put', 'patch', 'delete', 'post'] as const) {
      const res = await gw
        .http()
        [method](`/admin/v1/audit/${entry.id}`)
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
        .send({});
      expect(res.status).toBe(404);
    }
    await gw.http().delete('/admin/v1/audit').set('Authorization', `Bearer ${ADMIN_TOKEN}`).expect(404);
    const again = (await gw.admin.get('/admin/v1/audit?limit=1').expect(200)).body.items[0];
    expect(again).toEqual(entry);
  });
});

describe('admin API: a change and its audit entry are one transaction', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.close());

  it('when its entry cannot be written, the change is not made', async () => {
    const acct = (await gw.admin.post('/admin/v1/accounts', { name: 'Kept', balance: 100 }).expect(201)).body.id;
    // Without its chain head the trail cannot append: every change must fail whole.
    const ds = gw.app.get(DataSource);
    const head = await ds.getRepository(AuditChainHeadEntity).findOneByOrFail({ id: 1 });
    await ds.getRepository(AuditChainHeadEntity).delete({ id: 1 });
    await gw.admin.patch(`/admin/v1/accounts/${acct}`, { name: 'Changed' }).expect(500);
    await gw.admin.post(`/admin/v1/accounts/${acct}/balance`, { delta: 50, reason: 'lost' }).expect(500);
    await gw.admin.post('/admin/v1/operators', { name: 'Ghost', role: 'viewer' }).expect(500);
    await ds.getRepository(AuditChainHeadEntity).insert(head);

    const account = await gw.admin.get(`/admin/v1/accounts/${acct}`).expect(200);
    expect(account.body).toMatchObject({ name: 'Kept', balance: 100 });
    const operators = (await gw.admin.get('/admin/v1/operators').expect(200)).body.items;
    expect(operators.map((o: { name: string }) => o.name)).not.toContain('Ghost');
    expect((await gw.admin.get('/admin/v1/ledger/verify').expect(200)).body.ok).toBe(true);
  });
});
