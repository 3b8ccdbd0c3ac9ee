import { DataSource } from 'typeorm';
import { LedgerEntryEntity } from '../../src/core/billing/entities/ledger-entry.entity';
import { TaskEntity } from '../../src/core/tasks/entities/task.entity';
import { TasksRepository } from '../../src/core/tasks/tasks.repository';
import { TestAccount } from '../support/gateway-harness';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';

/**
 * Billing through the whole life of a task: the estimate is held at creation, a
 * success is charged by the gateway's own rule and logged once, every other ending releases
 * the hold in full, and the ledger always proves the balance.
 */
const CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const BALANCE = 1_000_000;

interface AxPrice {
  per_second: { '720P': number; '1080P': number };
  per_reference_image: number;
  per_reference_video: number;
}

function axBody(
  prompt: string,
  media: Array<{ type: string; url: string }> = [{ type: 'reference_image', url: 'https://example.com/cat.png' }],
) {
  return { model: 'wx2.7-r2v', input: { prompt, media }, parameters: { resolution: '720P', duration: 5 } };
}

async function accountMoney(gw: SimulatedGateway, account: TestAccount) {
  const res = await gw.admin.get(`/admin/v1/accounts/${account.id}`).expect(200);
  return {
    balance: res.body.balance as number,
    held: res.body.held as number,
    in_flight_tasks: res.body.in_flight_tasks as number,
  };
}

async function usageRows(gw: SimulatedGateway, account: TestAccount) {
  return (await gw.admin.get(`/admin/v1/usage?account_id=${account.id}`).expect(200)).body as {
    items: Array<Record<string, any>>;
    total: number;
  };
}

/** The ledger entry kinds written for one task, in a stable order. */
async function entryKinds(gw: SimulatedGateway, taskId: string): Promise<string[]> {
  const entries = await gw.app.get(DataSource).getRepository(LedgerEntryEntity).findBy({ taskId });
  return entries.map((e) => e.kind).sort();
}

async function expectLedgerOk(gw: SimulatedGateway) {
  const verify = await gw.admin.get('/admin/v1/ledger/verify').expect(200);
  expect(verify.body).toMatchObject({ ok: true, mismatches: [] });
}

async function ended(gw: SimulatedGateway, taskId: string): Promise<TaskEntity> {
  return eventually(async () => {
    const task = await gw.app.get(TasksRepository).findById(taskId);
    return task && task.billingState !== 'held' ? task : null;
  });
}

describe('billing: hold, settle and release through a task’s life', () => {
  let gw: SimulatedGateway;
  let price: AxPrice;
  const estimate = (seconds: number, images = 1, videos = 0) =>
    price.per_second['720P'] * seconds + price.per_reference_image * images + price.per_reference_video * videos;

  beforeAll(async () => {
    gw = await startSimulatedGateway();
    price = (await gw.admin.get('/admin/v1/prices').expect(200)).body.models['wx2.7-r2v'];
  });
  afterAll(() => gw.close());

  const newAccount = (balance = BALANCE) => gw.admin.account({ models: ['wx2.7-r2v'], balance });
  const create = (account: TestAccount, body: unknown) =>
    gw
      .http()
      .post(CREATE)
      .set(...bearer(account))
      .send(body as object);
  const upstreamCreates = () => gw.sim.requests.filter((r) => r.family === 'ax' && r.method === 'POST').length;

  it('success: holds the estimate, then charges the output seconds, logs one usage row and proves the ledger', async () => {
    const acct = await newAccount();
    expect(await accountMoney(gw, acct)).toEqual({ balance: BALANCE, held: 0, in_flight_tasks: 0 });
    const res = await create(acct, axBody('Image 1 walks sim:slow')).expect(200);
    const taskId = res.body.output.task_id;

    expect(await accountMoney(gw, acct)).toEqual({
      balance: BALANCE - estimate(5),
      held: estimate(5),
      in_flight_tasks: 1,
    });
    const task = await ended(gw, taskId);
    expect(task).toMatchObject({ phase: 'succeeded', billingState: 'settled', finalCharge: estimate(5) });
    expect(await accountMoney(gw, acct)).toEqual({ balance: BALANCE - estimate(5), held: 0, in_flight_tasks: 0 });

    const usage = await usageRows(gw, acct);
    expect(usage.total).toBe(1);
    expect(usage.items[0]).toMatchObject({
      task_id: taskId,
      account_id: acct.id,
      model: 'wx2.7-r2v',
      action: 'reference2video',
      amount: estimate(5),
      price_version: task.priceVersion,
    });
    expect(usage.items[0].usage).toMatchObject({
      output_seconds: 5,
      breakdown: { base: price.per_second['720P'] * 5, reference_images: price.per_reference_image },
    });
    expect(await entryKinds(gw, taskId)).toEqual(['charge', 'hold', 'release']);
    await expectLedgerOk(gw);
  });

  it('failure (sim:fail): the hold is released in full and nothing is logged', async () => {
    const acct = await newAccount();
    const res = await create(acct, axBody('Image 1 sim:fail sim:slow')).expect(200);
    const taskId = res.body.output.task_id;
    expect(await accountMoney(gw, acct)).toMatchObject({ balance: BALANCE - estimate(5), held: estimate(5) });
    expect(await ended(gw, taskId)).toMatchObject({ phase: 'failed', billingState: 'released', finalCharge: null });
    expect(await accountMoney(gw, acct)).toEqual({ balance: BALANCE, held: 0, in_flight_tasks: 0 });
    expect((await usageRows(gw, acct)).total).toBe(0);
    expect(await entryKinds(gw, taskId)).toEqual(['hold', 'release']);
    await expectLedgerOk(gw);
  });

  it.each([
    ['upstream rejection (sim:reject)', 'sim:reject', 400, 'rejected'],
    ['upstream 500 (sim:error500)', 'sim:error500', 503, 'rejected'],
  ])('%s: the hold taken for the call is released before the answer', async (_name, marker, status, phase) => {
    const acct = await newAccount();
    const before = upstreamCreates();
    await create(acct, axBody(`Image 1 ${marker}`)).expect(status);
    expect(upstreamCreates()).toBe(before + 1);
    expect(await accountMoney(gw, acct)).toEqual({ balance: BALANCE, held: 0, in_flight_tasks: 0 });
    const [task] = await gw.app.get(DataSource).getRepository(TaskEntity).findBy({ accountId: acct.id });
    expect(task).toMatchObject({ phase, billingState: 'released' });
    // Held and given back, not skipped: the entries show both halves.
    expect(await entryKinds(gw, task.id)).toEqual(['hold', 'release']);
    expect((await usageRows(gw, acct)).total).toBe(0);
    await expectLedgerOk(gw);
  });

  it('the final charge bills output seconds, not the native usage.duration that counts input seconds', async () => {
    const acct = await newAccount();
    const media = [
      { type: 'reference_image', url: 'https://example.com/cat.png' },
      { type: 'reference_video', url: 'https://example.com/dance.mp4' },
    ];
    const res = await create(acct, axBody('Image 1 dances like Video 1 sim:slow', media)).expect(200);
    const taskId = res.body.output.task_id;
    expect((await accountMoney(gw, acct)).held).toBe(estimate(5, 1, 1));
    // The upstream delivers 3 s of the 5 requested; its usage.duration counts the 5 s input video too (8 s).
    const { upstreamTaskId } = (await gw.app.get(TasksRepository).findById(taskId)) as TaskEntity;
    gw.sim.forceState('ax', upstreamTaskId as string, {
      usage: { output_video_duration: 3, input_video_duration: 5, duration: 8 },
    });

    const task = await ended(gw, taskId);
    expect(task.nativeUsage).toMatchObject({ duration: 8, output_video_duration: 3 });
    expect(task.finalCharge).toBe(estimate(3, 1, 1));
    expect(await accountMoney(gw, acct)).toEqual({ balance: BALANCE - estimate(3, 1, 1), held: 0, in_flight_tasks: 0 });
    const usage = await usageRows(gw, acct);
    expect(usage.items).toHaveLength(1);
    expect(usage.items[0]).toMatchObject({ task_id: taskId, amount: estimate(3, 1, 1) });
    expect(usage.items[0].usage).toMatchObject({
      output_seconds: 3,
      output_seconds_source: 'upstream',
      reference_videos: 1,
    });
    expect(usage.items[0].usage).not.toHaveProperty('referenceVideos');
    // The caller still sees the native figure, as information only.
    const query = await gw
      .http()
      .get(`/ax/api/v1/tasks/${taskId}`)
      .set(...bearer(acct))
      .expect(200);
    expect(query.body.usage).toMatchObject({ duration: 8 });
    await expectLedgerOk(gw);
  });

  it('403 insufficient_quota when the balance cannot cover the estimate: nothing created, nothing sent upstream', async () => {
    const acct = await newAccount(estimate(5) - 1);
    const before = upstreamCreates();
    const res = await create(acct, axBody('Image 1 walks')).expect(403);
    expect(res.body).toMatchObject({
      code: 'AccessDenied',
      error: { code: 'insufficient_quota', type: 'permission_error' },
    });
    expect(upstreamCreates()).toBe(before);
    expect(await accountMoney(gw, acct)).toEqual({ balance: estimate(5) - 1, held: 0, in_flight_tasks: 0 });
    expect(await gw.app.get(DataSource).getRepository(TaskEntity).countBy({ accountId: acct.id })).toBe(0);
    expect(await gw.app.get(DataSource).getRepository(LedgerEntryEntity).findBy({ accountId: acct.id })).toEqual([
      expect.objectContaining({ kind: 'credit', amount: estimate(5) - 1 }),
    ]);
    // One unit more and the same request is accepted.
    await gw.admin.post(`/admin/v1/accounts/${acct.id}/balance`, { delta: 1, reason: 'top-up' }).expect(200);
    await create(acct, axBody('Image 1 walks')).expect(200);
    expect((await accountMoney(gw, acct)).balance).toBe(0);
  });

  it('usage rows speak one language across families: one action name, snake_case facts, output seconds for vd too', async () => {
    const acct = await gw.admin.account({ models: ['vdq2'], balance: BALANCE });
    const res = await gw
      .http()
      .post('/vd/ent/v2/reference2video')
      .set(...bearer(acct))
      .send({ model: 'vdq2', images: ['https://example.com/a.png'], prompt: 'the cat walks', duration: 4 })
      .expect(200);
    await ended(gw, res.body.task_id);
    const [row] = (await usageRows(gw, acct)).items;
    // The vd upstream reports no per-output seconds: the requested duration is what was billed.
    expect(row).toMatchObject({ action: 'reference2video', model: 'vdq2' });
    expect(row.usage).toMatchObject({
      kind: 'vd-r2v',
      duration_seconds: 4,
      off_peak: false,
      output_seconds: 4,
      output_seconds_source: 'requested',
    });
    expect(Object.keys(row.usage).filter((key) => /[A-Z]/.test(key))).toEqual([]);
  });
});

describe('billing: a task past its deadline', () => {
  it('fails with the hold released in full and no usage row', async () => {
    const gw = await startSimulatedGateway({ taskMs: 300, env: { TASK_DEADLINE_MS: '1000' } });
    try {
      const acct = await gw.admin.account({ models: ['wx2.7-r2v'], balance: BALANCE });
      const res = await gw
        .http()
        .post(CREATE)
        .set(...bearer(acct))
        .send(axBody('Image 1 walks sim:slow'))
        .expect(200);
      const taskId = res.body.output.task_id;
      const holding = await accountMoney(gw, acct);
      expect(holding.held).toBeGreaterThan(0);
      expect(holding.balance).toBe(BALANCE - holding.held);

      const task = await ended(gw, taskId);
      expect(task).toMatchObject({ phase: 'failed', failureCode: 'deadline_exceeded', billingState: 'released' });
      expect(await accountMoney(gw, acct)).toEqual({ balance: BALANCE, held: 0, in_flight_tasks: 0 });
      expect((await usageRows(gw, acct)).total).toBe(0);
      expect(await entryKinds(gw, taskId)).toEqual(['hold', 'release']);
      await expectLedgerOk(gw);
    } finally {
      await gw.close();
    }
  });
});
