import { DataSource } from 'typeorm';
import { FAMILY_REGISTRY } from '../support/families';
import { LedgerEntryEntity } from '../../src/core/billing/entities/ledger-entry.entity';
import { TasksRepository } from '../../src/core/tasks/tasks.repository';
import { TestAccount } from '../support/gateway-harness';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';

/** The pricing table through the admin API: read, validated replacement, versions on every charge. */
const CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const axBody = (prompt: string) => ({
  model: 'wx2.7-r2v',
  input: { prompt, media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
  parameters: { resolution: '720P', duration: 5 },
});

describe('admin prices: GET/PUT /admin/v1/prices', () => {
  let gw: SimulatedGateway;
  let acct: TestAccount;
  beforeAll(async () => {
    gw = await startSimulatedGateway();
    acct = await gw.admin.account({ models: ['wx2.7-r2v'], balance: 10_000_000 });
  });
  afterAll(() => gw.close());

  const current = async () => (await gw.admin.get('/admin/v1/prices').expect(200)).body;
  const settledTask = (taskId: string) =>
    eventually(async () => {
      const task = await gw.app.get(TasksRepository).findById(taskId);
      return task?.billingState === 'settled' ? task : null;
    });

  it('serves the table in force with its version, every catalogue model priced; admin token required', async () => {
    await gw.http().get('/admin/v1/prices').expect(401);
    await gw.http().put('/admin/v1/prices').send({}).expect(401);
    const table = await current();
    expect(table).toMatchObject({ version: 1, unit: 'millicredit', currency_unit: expect.any(String) });
    expect(Object.keys(table.models).sort()).toEqual(
      FAMILY_REGISTRY.all()
        .map((m) => m.name)
        .sort(),
    );
    expect(table.models['wx2.7-r2v']).toEqual({
      per_second: { '720P': expect.any(Number), '1080P': expect.any(Number) },
      per_reference_image: expect.any(Number),
      per_reference_video: expect.any(Number),
    });
  });

  it.each([
    [
      'a fractional price',
      (t: any) => (t.models['wx2.7-r2v'].per_second['720P'] = 10.5),
      'models.wx2.7-r2v.per_second.720P',
    ],
    ['a price as a string', (t: any) => (t.models.vdq3.per_second['720p'] = '900'), 'models.vdq3.per_second.720p'],
    ['a negative price', (t: any) => (t.models['kl-v1'].voice = -1), 'models.kl-v1.voice'],
    ['a model left unpriced', (t: any) => delete t.models.vdq2, 'models.vdq2'],
    ['a model not in the catalogue', (t: any) => (t.models['gpt-video'] = { voice: 1 }), 'models.gpt-video'],
    ['an unknown field', (t: any) => (t.models['wx2.6-r2v'].per_frame = 3), 'models.wx2.6-r2v.per_frame'],
    ['a discount that raises the price', (t: any) => (t.models.vdq3.off_peak_bp = 12000), 'models.vdq3.off_peak_bp'],
    ['a version that is no whole number', (t: any) => (t.version = 'next'), 'version'],
    ['a version too high to leave room for the next', (t: any) => (t.version = 2 ** 53), 'version'],
    [
      'a prototype key in a price map',
      (t: any) => (t.models.vdq3.per_second = JSON.parse('{"constructor":{"prototype":{"x":1}}}')),
      'models.vdq3.per_second.constructor',
    ],
  ])('refuses %s with 400 naming the field, and keeps the table in force', async (_name, edit, param) => {
    const table = await current();
    edit(table);
    const res = await gw.admin.put('/admin/v1/prices', table).expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', type: 'invalid_request_error', param });
    expect((await current()).version).toBe(1);
  });

  it('refuses a body that is not a table object', async () => {
    const res = await gw.admin.put('/admin/v1/prices', [1, 2]).expect(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect((await current()).version).toBe(1);
  });

  it('a new version is used by later holds and charges, while a task held before settles at its own version', async () => {
    const before = await gw
      .http()
      .post(CREATE)
      .set(...bearer(acct))
      .send(axBody('Image 1 early sim:slow'))
      .expect(200);
    const v1 = await current();

    const table = await current();
    table.models['wx2.7-r2v'].per_second['720P'] = v1.models['wx2.7-r2v'].per_second['720P'] + 1000;
    const put = await gw.admin.put('/admin/v1/prices', table).expect(200);
    expect(put.body).toMatchObject({
      version: 2,
      models: { 'wx2.7-r2v': { per_second: { '720P': v1.models['wx2.7-r2v'].per_second['720P'] + 1000 } } },
    });
    expect(await current()).toEqual(put.body);

    const after = await gw
      .http()
      .post(CREATE)
      .set(...bearer(acct))
      .send(axBody('Image 1 late'))
      .expect(200);
    const early = await settledTask(before.body.output.task_id);
    const late = await settledTask(after.body.output.task_id);
    expect(early.priceVersion).toBe(1);
    expect(late.priceVersion).toBe(2);
    expect(late.finalCharge! - early.finalCharge!).toBe(5 * 1000);

    const usage = (await gw.admin.get(`/admin/v1/usage?account_id=${acct.id}`).expect(200)).body.items;
    const versionOf = (taskId: string) => usage.find((u: { task_id: string }) => u.task_id === taskId)?.price_version;
    expect(versionOf(early.id)).toBe(1);
    expect(versionOf(late.id)).toBe(2);
    const charges = await gw.app
      .get(DataSource)
      .getRepository(LedgerEntryEntity)
      .findBy({ accountId: acct.id, kind: 'charge' });
    expect(charges.map((c) => [c.taskId, c.priceVersion]).sort()).toEqual(
      [
        [early.id, 1],
        [late.id, 2],
      ].sort(),
    );
    expect((await gw.admin.get('/admin/v1/ledger/verify').expect(200)).body.ok).toBe(true);
  });

  it('stores each PUT as its own next version, even parallel ones that all send an old number', async () => {
    const table = await current();
    const start = table.version;
    table.version = 1;
    const results = await Promise.all([1, 2, 3].map(() => gw.admin.put('/admin/v1/prices', table)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results.map((r) => r.body.version).sort()).toEqual([start + 1, start + 2, start + 3]);
    expect((await current()).version).toBe(start + 3);
  });

  it('numbers a table sent with a far higher version as the next one, so reading and sending back always works', async () => {
    const table = await current();
    const start = table.version as number;
    table.version = 1_000_000_000;
    expect((await gw.admin.put('/admin/v1/prices', table).expect(200)).body.version).toBe(start + 1);
    for (const round of [2, 3]) {
      const read = await current();
      expect((await gw.admin.put('/admin/v1/prices', read).expect(200)).body.version).toBe(start + round);
    }
  });

  it('refuses a table in another unit: every stored amount is counted in the one in force', async () => {
    const table = await current();
    const version = table.version;
    table.unit = 'credit';
    const res = await gw.admin.put('/admin/v1/prices', table).expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'unit' });
    expect(res.body.error.message).toContain("'millicredit'");
    expect((await current()).version).toBe(version);
  });

  it('numbers a table sent without a version as the next one', async () => {
    const table = await current();
    const before = table.version as number;
    delete table.version;
    const put = await gw.admin.put('/admin/v1/prices', table).expect(200);
    expect(put.body.version).toBe(before + 1);
    expect((await current()).version).toBe(before + 1);
  });
});
