import { DataSource } from 'typeorm';
import { LedgerEntryEntity } from '../../src/core/billing/entities/ledger-entry.entity';
import { UsageRecordEntity } from '../../src/core/billing/entities/usage-record.entity';
import { LedgerService } from '../../src/core/billing/ledger.service';
import { TaskEntity } from '../../src/core/tasks/entities/task.entity';
import { TaskSyncService } from '../../src/core/tasks/task-sync.service';
import { TasksRepository } from '../../src/core/tasks/tasks.repository';
import { TestAccount } from '../support/gateway-harness';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';

/**
 * Money under concurrency: parallel creates never take more than the balance holds, and a
 * task is charged once however many times its settlement is attempted. Runs on SQLite and on
 * PostgreSQL (where the requests really do race on the account row).
 */
const CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const axBody = (prompt: string) => ({
  model: 'wx2.7-r2v',
  input: { prompt, media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
  parameters: { resolution: '720P', duration: 5 },
});

async function money(gw: SimulatedGateway, account: TestAccount) {
  const res = await gw.admin.get(`/admin/v1/accounts/${account.id}`).expect(200);
  return {
    balance: res.body.balance as number,
    held: res.body.held as number,
    in_flight_tasks: res.body.in_flight_tasks as number,
  };
}

async function expectLedgerOk(gw: SimulatedGateway) {
  expect((await gw.admin.get('/admin/v1/ledger/verify').expect(200)).body).toMatchObject({ ok: true, mismatches: [] });
}

/** What one create holds, measured on a throwaway account (so the test follows the price table). */
async function measureEstimate(gw: SimulatedGateway): Promise<number> {
  const probe = await gw.admin.account({ models: ['wx2.7-r2v'], balance: 10_000_000 });
  await gw
    .http()
    .post(CREATE)
    .set(...bearer(probe))
    .send(axBody('Image 1 probe sim:slow'))
    .expect(200);
  return (await money(gw, probe)).held;
}

describe('billing: the concurrent last-balance race', () => {
  let gw: SimulatedGateway;
  beforeAll(async () => {
    gw = await startSimulatedGateway();
  });
  afterAll(() => gw.close());

  it('a balance for exactly N tasks and 3N parallel creates: exactly N accepted, the rest 403 insufficient_quota', async () => {
    const N = 8;
    const estimate = await measureEstimate(gw);
    const acct = await gw.admin.account({
      models: ['wx2.7-r2v'],
      balance: N * estimate,
      max_concurrent_tasks: 1000,
      rate_limit_rpm: 10_000,
    });
    const upstreamCreates = () => gw.sim.requests.filter((r) => r.family === 'ax' && r.method === 'POST').length;
    const before = upstreamCreates();

    const responses = await Promise.all(
      Array.from({ length: 3 * N }, (_, i) =>
        gw
          .http()
          .post(CREATE)
          .set(...bearer(acct))
          .send(axBody(`Image 1 racer ${i} sim:slow`)),
      ),
    );

    const accepted = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status !== 200);
    expect(accepted).toHaveLength(N);
    expect(refused).toHaveLength(2 * N);
    for (const r of refused) expect(r.body.error).toMatchObject({ code: 'insufficient_quota' });
    expect(new Set(accepted.map((r) => r.body.output.task_id)).size).toBe(N);
    expect(await money(gw, acct)).toEqual({ balance: 0, held: N * estimate, in_flight_tasks: N });
    // Refused requests reached neither the task table nor the upstream.
    expect(await gw.app.get(DataSource).getRepository(TaskEntity).countBy({ accountId: acct.id })).toBe(N);
    expect(upstreamCreates() - before).toBe(N);
    await expectLedgerOk(gw);

    // Every accepted task then settles within its hold.
    await eventually(async () => (await money(gw, acct)).held === 0, 10_000);
    expect(await money(gw, acct)).toEqual({ balance: 0, held: 0, in_flight_tasks: 0 });
    expect((await gw.admin.get(`/admin/v1/usage?account_id=${acct.id}`).expect(200)).body.total).toBe(N);
    await expectLedgerOk(gw);
  });
});

describe('billing: double settlement charges once', () => {
  let gw: SimulatedGateway;
  // Workers off: the tests play the workers themselves, several at a time.
  beforeAll(async () => {
    gw = await startSimulatedGateway({ env: { WORKERS_ENABLED: 'false' } });
  });
  afterAll(() => gw.close());

  const usageFor = (taskId: string) => gw.app.get(DataSource).getRepository(UsageRecordEntity).findBy({ taskId });
  const entriesFor = async (taskId: string) =>
    (await gw.app.get(DataSource).getRepository(LedgerEntryEntity).findBy({ taskId })).map((e) => e.kind).sort();

  async function createTask(acct: TestAccount): Promise<TaskEntity> {
    const res = await gw
      .http()
      .post(CREATE)
      .set(...bearer(acct))
      .send(axBody('Image 1 walks'))
      .expect(200);
    return (await gw.app.get(TasksRepository).findById(res.body.output.task_id)) as TaskEntity;
  }

  it('two workers syncing the same finished task at once, then a replay of a stale copy: one charge, one usage row', async () => {
    const acct = await gw.admin.account({ models: ['wx2.7-r2v'], balance: 1_000_000 });
    const stale = await createTask(acct);
    expect(stale).toMatchObject({ phase: 'active', billingState: 'held' });
    await new Promise((r) => setTimeout(r, 300)); // the simulated upstream has finished by now
    const sync = gw.app.get(TaskSyncService);
    const copy = () => Object.assign(new TaskEntity(), structuredClone(stale));

    await Promise.all([sync.sync(copy()), sync.sync(copy()), sync.sync(copy()), sync.sync(copy())]);
    const settled = (await gw.app.get(TasksRepository).findById(stale.id)) as TaskEntity;
    expect(settled).toMatchObject({ phase: 'succeeded', billingState: 'settled' });
    const charge = settled.finalCharge as number;
    expect(charge).toBeGreaterThan(0);
    const after = { balance: 1_000_000 - charge, held: 0, in_flight_tasks: 0 };
    expect(await money(gw, acct)).toEqual(after);

    // A replayed sync of the pre-settlement record (a late callback, a worker that lost its lease).
    await sync.sync(copy());
    expect(await money(gw, acct)).toEqual(after);
    expect(await usageFor(stale.id)).toHaveLength(1);
    expect(await entriesFor(stale.id)).toEqual(['charge', 'hold', 'release']);
    await expectLedgerOk(gw);
  });

  it('LedgerService.settle called concurrently, then settle or release again: the hold closes once', async () => {
    const ledger = gw.app.get(LedgerService);
    const acct = await gw.admin.account({ models: ['wx2.7-r2v'], balance: 1_000_000 });
    const task = await createTask(acct);
    const held = task.estimatedCharge;
    const charge = {
      amount: held - 1,
      priceVersion: task.priceVersion as number,
      model: task.model,
      action: task.action,
      usage: { test: true },
    };

    const attempts = await Promise.all(Array.from({ length: 4 }, () => ledger.settle(acct.id, task.id, held, charge)));
    expect(attempts.filter(Boolean)).toHaveLength(1);
    const settled = { balance: 1_000_000 - charge.amount, held: 0, in_flight_tasks: 1 };
    expect(await money(gw, acct)).toEqual(settled);

    // And again after the fact, as a settlement or as a release.
    expect(await ledger.settle(acct.id, task.id, held, charge)).toBe(false);
    expect(await ledger.release(acct.id, task.id, held, 'late release')).toBe(false);
    expect(await money(gw, acct)).toEqual(settled);
    expect(await usageFor(task.id)).toHaveLength(1);
    expect(await entriesFor(task.id)).toEqual(['charge', 'hold', 'release']);
    await expectLedgerOk(gw);
  });
});
