import { LedgerService } from '../../src/core/billing/ledger.service';
import { PricingService } from '../../src/core/billing/pricing.service';
import { taskRecord } from '../factories/tasks';
import { TasksRepository } from '../../src/core/tasks/tasks.repository';
import { TransactionRunner } from '../../src/platform/database/transaction-runner';
import { newId } from '../../src/platform/ids/ids';
import { SimulatedGateway, eventually, startSimulatedGateway } from '../support/simulated-gateway';

/**
 * The process died after the upstream accepted a task and before its answer was recorded. Where
 * the upstream can find the task by the reference the gateway sent (kl: our task ID as
 * external_task_id), the record is adopted and followed to its end; the caller never got an
 * answer, so nothing is charged.
 */
describe('task engine: reconciling a task the upstream accepted while the gateway crashed', () => {
  let gw: SimulatedGateway;
  beforeAll(async () => {
    gw = await startSimulatedGateway({ taskMs: 200 });
  });
  afterAll(() => gw.close());

  it('adopts the upstream task, follows it to success and charges nothing', async () => {
    const acct = await gw.admin.account({ models: ['kl-v1'], balance: 100_000 });
    const taskId = newId('task');
    const usage = { kind: 'kl-voice' as const };
    const estimate = gw.app.get(PricingService).estimate('kl-v1', usage);
    const now = Date.now();
    const task = taskRecord({
      id: taskId,
      accountId: acct.id,
      apiKeyId: acct.keyId,
      family: 'kl',
      action: 'custom_voices',
      model: 'kl-v1',
      channelId: 'kl-default',
      nativeStatus: 'submitted',
      outerStatus: 'NOT_START',
      requestSnapshot: { voice_name: 'narrator' },
      billableUsage: usage,
      estimatedCharge: estimate.amount,
      priceVersion: estimate.priceVersion,
      createdAt: now,
    });
    // What the engine had committed before the call: the hold, the slot and the record.
    const hold = gw.app.get(LedgerService).holdEntry(acct.id, taskId, estimate.amount, estimate.priceVersion);
    expect(
      await gw.app.get(TransactionRunner).runAtomic((tx) => gw.app.get(TasksRepository).open(task, hold, 10, tx)),
    ).toBe('opened');
    // The upstream accepted the call (with our reference) but the answer never got recorded.
    const upstream = await fetch(`${gw.sim.endpoints.kl.baseUrl}/v1/general/custom-voices`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${gw.sim.endpoints.kl.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        voice_name: 'narrator',
        voice_url: 'https://example.com/v.mp3',
        external_task_id: taskId,
      }),
    });
    expect(upstream.status).toBe(200);
    const upstreamId = ((await upstream.json()) as { data: { task_id: string } }).data.task_id;
    // The worker finds the unconfirmed record once it is due.
    await gw.app.get(TasksRepository).update(taskId, { syncDueAt: Date.now() });

    const done = await eventually(async () => {
      const t = await gw.app.get(TasksRepository).findById(taskId);
      return t?.phase === 'succeeded' ? t : null;
    });
    expect(done).toMatchObject({ upstreamTaskId: upstreamId, billingState: 'released', finalCharge: null });
    expect(done.result?.voices[0]?.voiceId).toBeTruthy();
    const account = (await gw.admin.get(`/admin/v1/accounts/${acct.id}`).expect(200)).body;
    expect(account).toMatchObject({ balance: 100_000, held: 0, in_flight_tasks: 0 });
    expect((await gw.admin.get('/admin/v1/ledger/verify')).body.ok).toBe(true);
  });
});
