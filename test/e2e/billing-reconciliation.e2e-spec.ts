import { DataSource } from 'typeorm';
import { AccountEntity } from '../../src/core/accounts/entities/account.entity';
import { LedgerEntryEntity } from '../../src/core/billing/entities/ledger-entry.entity';
import { LedgerService } from '../../src/core/billing/ledger.service';
import { TaskEntity } from '../../src/core/tasks/entities/task.entity';
import { ReconciliationSweeper } from '../../src/core/tasks/reconciliation/reconciliation.sweeper';
import { TasksRepository } from '../../src/core/tasks/tasks.repository';
import { TransactionRunner } from '../../src/platform/database/transaction-runner';
import { newId } from '../../src/platform/ids/ids';
import { Clock } from '../../src/platform/time/clock';
import { simulatorChannels } from '../../src/bootstrap/resolve-channels';
import { startSimulator } from '../../src/simulator/simulator';
import { TestAccount, startGateway } from '../support/gateway-harness';
import { FAST_ENV, SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';

/**
 * Recovery after a crash. The crashed state is written straight into the database through the
 * app's own repositories (exactly what the engine had committed when the process died); then
 * the sync worker or the reconciliation sweep must bring the books back without help.
 */
const CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const axBody = (prompt: string) => ({
  model: 'wx2.7-r2v',
  input: { prompt, media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
  parameters: { resolution: '720P', duration: 5 },
});
const MINUTE = 60_000;

/** The system time, moved forward when the test says so: every worker of the gateway reads it. */
class AdvancingClock extends Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

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

/** A real finished task of the account: the template every planted record is copied from. */
async function finishedTask(gw: SimulatedGateway, acct: TestAccount): Promise<TaskEntity> {
  const res = await gw
    .http()
    .post(CREATE)
    .set(...bearer(acct))
    .send(axBody('Image 1 template'))
    .expect(200);
  return eventually(async () => {
    const task = await gw.app.get(TasksRepository).findById(res.body.output.task_id);
    return task?.billingState === 'settled' ? task : null;
  });
}

/**
 * Writes what TaskEngine.create commits before its upstream call (a slot, then the hold and the
 * task row in one transaction), with the record then changed as `changes` says: the state a
 * crash leaves behind.
 */
async function plantCrashedTask(
  gw: SimulatedGateway,
  template: TaskEntity,
  changes: Partial<TaskEntity>,
): Promise<TaskEntity> {
  const task = Object.assign(new TaskEntity(), structuredClone(template), {
    id: newId('task'),
    upstreamTaskId: null,
    externalTaskId: null,
    callbackUrl: null,
    callbackToken: null,
    billingState: 'held',
    finalCharge: null,
    leaseOwner: null,
    leaseUntil: null,
    syncAttempts: 0,
    ...changes,
  } satisfies Partial<TaskEntity>);
  // Exactly what the engine commits before its upstream call: slot, hold, hold entry and record in one.
  const hold = gw.app
    .get(LedgerService)
    .holdEntry(task.accountId, task.id, task.estimatedCharge, task.priceVersion as number);
  expect(
    await gw.app.get(TransactionRunner).runAtomic((tx) => gw.app.get(TasksRepository).open(task, hold, 1000, tx)),
  ).toBe('opened');
  return task;
}

const entryKinds = async (gw: SimulatedGateway, taskId: string) =>
  (await gw.app.get(DataSource).getRepository(LedgerEntryEntity).findBy({ taskId })).map((e) => e.kind).sort();
const taskRow = async (gw: SimulatedGateway, taskId: string) =>
  (await gw.app.get(TasksRepository).findById(taskId)) as TaskEntity;

describe('billing: reconciliation after a crash (workers on)', () => {
  let gw: SimulatedGateway;
  let acct: TestAccount;
  let template: TaskEntity;
  const clock = new AdvancingClock();

  beforeAll(async () => {
    // As startSimulatedGateway, with the gateway on a clock the test can move.
    const sim = await startSimulator({ taskMs: 150 });
    const harness = await startGateway({
      channels: simulatorChannels(sim),
      clock,
      env: { ...FAST_ENV, RECONCILE_INTERVAL_MS: '100' },
    });
    gw = {
      ...harness,
      sim,
      close: async () => {
        await harness.close();
        await sim.close();
      },
    };
    acct = await gw.admin.account({ models: ['wx2.7-r2v'], balance: 1_000_000 });
    template = await finishedTask(gw, acct);
  });
  afterAll(() => gw.close());

  it('crash between the hold and the upstream call: the sync worker releases the hold and ends the task', async () => {
    const base = await money(gw, acct);
    const creates = gw.sim.requests.filter((r) => r.method === 'POST').length;
    const now = clock.nowMs();
    // Due when TaskEngine.create makes it due: once the dead creator's upstream call must have ended.
    const callWindow = gw.config.UPSTREAM_TIMEOUT_MS + 5000;
    const task = await plantCrashedTask(gw, template, {
      phase: 'submitting',
      outerStatus: 'NOT_START',
      nativeStatus: 'PENDING',
      progress: 0,
      result: null,
      lastNative: null,
      nativeUsage: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
      syncDueAt: now + callWindow,
      deadlineAt: now + 60 * MINUTE,
    });
    expect(await money(gw, acct)).toEqual({
      balance: base.balance - task.estimatedCharge,
      held: task.estimatedCharge,
      in_flight_tasks: 1,
    });
    // While that call could still be running, the workers leave the record and its hold alone (ten sync cycles)...
    await new Promise((r) => setTimeout(r, 10 * gw.config.SYNC_INTERVAL_MS));
    expect(await taskRow(gw, task.id)).toMatchObject({ phase: 'submitting', billingState: 'held' });
    expect(await money(gw, acct)).toEqual({
      balance: base.balance - task.estimatedCharge,
      held: task.estimatedCharge,
      in_flight_tasks: 1,
    });

    // ...and reconcile it once the call must have ended.
    clock.advance(callWindow);
    await eventually(async () => (await taskRow(gw, task.id)).billingState === 'released');
    expect(await taskRow(gw, task.id)).toMatchObject({
      phase: 'failed',
      failureCode: 'creation_unconfirmed',
      finalCharge: null,
    });
    expect(await money(gw, acct)).toEqual(base);
    expect(await entryKinds(gw, task.id)).toEqual(['hold', 'release']);
    expect(gw.sim.requests.filter((r) => r.method === 'POST').length).toBe(creates);
    await expectLedgerOk(gw);
  });

  it('crash between the terminal switch and settlement: the sweep charges the output seconds and frees the slot', async () => {
    const base = await money(gw, acct);
    const now = clock.nowMs();
    const result = structuredClone(template.result)!;
    result.videos[0].durationSeconds = 4; // of 5 requested: the sweep must price the real output
    const task = await plantCrashedTask(gw, template, {
      phase: 'succeeded',
      result,
      createdAt: now - 2 * MINUTE,
      finishedAt: now - MINUTE,
      syncDueAt: null,
    });
    const price = (await gw.admin.get('/admin/v1/prices').expect(200)).body.models['wx2.7-r2v'];
    const charge = price.per_second['720P'] * 4 + price.per_reference_image;
    expect(charge).toBeLessThan(task.estimatedCharge);

    await eventually(async () => (await taskRow(gw, task.id)).billingState === 'settled');
    expect((await taskRow(gw, task.id)).finalCharge).toBe(charge);
    expect(await money(gw, acct)).toEqual({ balance: base.balance - charge, held: 0, in_flight_tasks: 0 });
    const usage = (await gw.admin.get(`/admin/v1/usage?account_id=${acct.id}`).expect(200)).body.items.filter(
      (u: { task_id: string }) => u.task_id === task.id,
    );
    expect(usage).toEqual([expect.objectContaining({ amount: charge, price_version: task.priceVersion })]);
    expect(await entryKinds(gw, task.id)).toEqual(['charge', 'hold', 'release']);
    await expectLedgerOk(gw);
  });

  it('crash between a failure and its release: the sweep releases the hold in full', async () => {
    const base = await money(gw, acct);
    const now = clock.nowMs();
    const task = await plantCrashedTask(gw, template, {
      phase: 'failed',
      outerStatus: 'FAILURE',
      failureCode: 'upstream_failed',
      result: null,
      finishedAt: now - MINUTE,
      syncDueAt: null,
    });
    await eventually(async () => (await taskRow(gw, task.id)).billingState === 'released');
    expect(await money(gw, acct)).toEqual(base);
    expect(await entryKinds(gw, task.id)).toEqual(['hold', 'release']);
    await expectLedgerOk(gw);
  });

  it('an in-flight counter that drifted from the open tasks is recounted, in either direction', async () => {
    const leaky = await gw.admin.account({ models: ['wx2.7-r2v'], balance: 1_000_000 });
    await gw.app.get(DataSource).getRepository(AccountEntity).update({ id: leaky.id }, { inFlightTasks: 7 });
    await eventually(async () => (await money(gw, leaky)).in_flight_tasks === 0);

    const res = await gw
      .http()
      .post(CREATE)
      .set(...bearer(leaky))
      .send(axBody('Image 1 sim:slow'))
      .expect(200);
    await gw.app.get(DataSource).getRepository(AccountEntity).update({ id: leaky.id }, { inFlightTasks: 0 });
    await eventually(async () => (await money(gw, leaky)).in_flight_tasks === 1);
    // The task then ends normally and gives its slot back.
    await eventually(async () => (await taskRow(gw, res.body.output.task_id)).billingState === 'settled');
    expect(await money(gw, leaky)).toMatchObject({ held: 0, in_flight_tasks: 0 });
    await expectLedgerOk(gw);
  });
});

describe('billing: the reconciliation sweep runs with the workers only', () => {
  it('with WORKERS_ENABLED=false nothing is repaired until a sweep cycle runs', async () => {
    const gw = await startSimulatedGateway({ env: { WORKERS_ENABLED: 'false', RECONCILE_INTERVAL_MS: '50' } });
    try {
      const acct = await gw.admin.account({ models: ['wx2.7-r2v'], balance: 1_000_000 });
      const res = await gw
        .http()
        .post(CREATE)
        .set(...bearer(acct))
        .send(axBody('Image 1 walks'))
        .expect(200);
      const open = await taskRow(gw, res.body.output.task_id);
      const now = Date.now();
      const task = await plantCrashedTask(gw, open, {
        phase: 'failed',
        failureCode: 'upstream_failed',
        finishedAt: now - MINUTE,
        syncDueAt: null,
      });
      await new Promise((r) => setTimeout(r, 300));
      expect((await taskRow(gw, task.id)).billingState).toBe('held');

      const sweeper = gw.app.get(ReconciliationSweeper);
      expect(await sweeper.runCycle()).toEqual({ endingsCompleted: 1, slotsRecounted: 0 });
      expect((await taskRow(gw, task.id)).billingState).toBe('released');
      // A second sweeper (another instance) finds nothing left to do.
      expect(await sweeper.runCycle()).toEqual({ endingsCompleted: 0, slotsRecounted: 0 });
      expect(await money(gw, acct)).toMatchObject({ in_flight_tasks: 1, held: open.estimatedCharge });
      await expectLedgerOk(gw);
    } finally {
      await gw.close();
    }
  });
});
