import { Logger } from '@nestjs/common';
import { draft, newFakes, principal, snapshot } from '../../../test/fakes';
import { isDatabaseUnavailable } from '../../platform/database/database-unavailable';
import { GatewayError } from '../../platform/errors';
import {
  UpstreamOutcomeUnknownError,
  UpstreamRejectedError,
  UpstreamUnavailableError,
} from '../../upstream/upstream.types';

/** Creates one task and returns what the caller got (the task or the error) with the stored row. */
async function create(f: ReturnType<typeof newFakes>) {
  let error: unknown = null;
  const task = await f.engine.create(principal(), draft()).catch((e: unknown) => {
    error = e;
    return null;
  });
  const id = f.client.submits[0]?.options?.clientReference;
  return { task, error, row: id ? f.tasks.row(id) : null };
}

function gatewayError(error: unknown): GatewayError {
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe('TaskEngine.create', () => {
  it('syncDueAt counts from the commit, not from before a slow slot/hold transaction', async () => {
    const f = newFakes();
    const run = f.transactions.run.bind(f.transactions);
    // The transaction waits 60 s for its turn (a lock, the SQLite queue): the record commits 60 s after the request
    // started.
    jest.spyOn(f.transactions, 'run').mockImplementation(async (work) => {
      f.clock.advance(60_000);
      return run(work);
    });
    let dueAtSubmit: number | null = null;
    f.client.onSubmit = async () => {
      dueAtSubmit = f.tasks.row(f.client.submits[0].options!.clientReference!).syncDueAt;
      return { upstreamTaskId: 'up-1', snapshot: snapshot({ state: 'queued' }) };
    };
    await create(f);
    // The upstream call starts now: the worker may only reconcile once it must have ended.
    expect(dueAtSubmit).toBeGreaterThanOrEqual(f.clock.nowMs() + f.config.UPSTREAM_TIMEOUT_MS);
  });

  it('accepted: the task is active with its upstream ID, the estimate held and the slot taken', async () => {
    const f = newFakes();
    const { task, row } = await create(f);
    expect(task?.phase).toBe('active');
    expect(row).toMatchObject({ phase: 'active', upstreamTaskId: 'up-1', billingState: 'held' });
    expect(row?.syncDueAt).toBeGreaterThan(f.clock.nowMs());
    expect(f.account()).toEqual({ balance: 900, held: 100, inFlightTasks: 1 });
    expect(f.callbacks.queued).toHaveLength(0);
  });

  it('rejected (4xx): 400 with the native error, the task rejected, the hold released and the slot freed', async () => {
    const f = newFakes();
    f.client.onSubmit = () => Promise.reject(new UpstreamRejectedError(400, 1201, 'prompt too long'));
    const { error, row } = await create(f);
    const e = gatewayError(error);
    expect(e.status).toBe(400);
    expect(e.options).toMatchObject({ native: { code: 1201, message: 'prompt too long' } });
    expect(row).toMatchObject({ phase: 'rejected', failureCode: '1201', billingState: 'released', syncDueAt: null });
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
    expect(f.ledgerRepository.kinds(row!.id)).toEqual(['hold', 'release']);
    // The caller got 400 and no task ID: no client callback for it.
    expect(f.callbacks.queued).toHaveLength(0);
  });

  it('a failed upstream call is one WARN line: family, channel, HTTP status, the upstream code and message, task ID', async () => {
    const f = newFakes();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      f.client.onSubmit = () => Promise.reject(new UpstreamRejectedError(400, 1201, 'prompt too long'));
      const { row } = await create(f);
      const lines = warn.mock.calls.filter(([fields]) => (fields as { taskId?: string }).taskId === row!.id);
      expect(lines).toHaveLength(1);
      expect(lines[0][0]).toMatchObject({
        family: row!.family,
        channel: row!.channelId,
        status: 400,
        code: 1201,
        message: 'prompt too long',
        taskId: row!.id,
      });
    } finally {
      warn.mockRestore();
    }
  });

  it('unavailable (5xx, breaker): 503, the task rejected, the hold released and the slot freed', async () => {
    const f = newFakes();
    f.client.onSubmit = () => Promise.reject(new UpstreamUnavailableError('502 from upstream', 502));
    const { error, row } = await create(f);
    expect(gatewayError(error).status).toBe(503);
    expect(row).toMatchObject({ phase: 'rejected', failureCode: 'upstream_unavailable', billingState: 'released' });
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
    expect(f.callbacks.queued).toHaveLength(0);
  });

  it('an unexpected client fault is treated as unavailable: 503, nothing kept', async () => {
    const f = newFakes();
    f.client.onSubmit = () => Promise.reject(new TypeError('bug in a client'));
    const { error, row } = await create(f);
    expect(gatewayError(error).status).toBe(503);
    expect(row).toMatchObject({ phase: 'rejected', billingState: 'released' });
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
  });

  it('outcome unknown: 503, the record kept submitting with its hold and slot, due for reconciliation now', async () => {
    const f = newFakes();
    f.client.onSubmit = () => Promise.reject(new UpstreamOutcomeUnknownError('timed out after sending'));
    const { error, row } = await create(f);
    expect(gatewayError(error).status).toBe(503);
    expect(row).toMatchObject({
      phase: 'submitting',
      billingState: 'held',
      upstreamTaskId: null,
      syncDueAt: f.clock.nowMs(),
    });
    expect(f.account()).toEqual({ balance: 900, held: 100, inFlightTasks: 1 });
    expect(f.callbacks.queued).toHaveLength(0);
  });

  it('outcome unknown on a task someone ended meanwhile: the ended task is not made due again', async () => {
    const f = newFakes();
    f.client.onSubmit = async () => {
      const id = f.client.submits[0].options!.clientReference!;
      await f.lifecycle.failByGateway(f.tasks.row(id), 'creation_unconfirmed', 'ended by the sync worker');
      throw new UpstreamOutcomeUnknownError('timed out after sending');
    };
    const { error, row } = await create(f);
    expect(gatewayError(error).status).toBe(503);
    expect(row).toMatchObject({ phase: 'failed', syncDueAt: null });
  });

  it('acceptance-recording failure: 500, the upstream ID written as a last resort, the hold kept, due now', async () => {
    const f = newFakes();
    f.tasks.faults.set('updateIfOpen', new Error('database went away'));
    const { error, row } = await create(f);
    const e = gatewayError(error);
    expect(e.status).toBe(500);
    expect(row).toMatchObject({
      phase: 'active',
      upstreamTaskId: 'up-1',
      billingState: 'held',
      syncDueAt: f.clock.nowMs(),
    });
    expect(f.account()).toEqual({ balance: 900, held: 100, inFlightTasks: 1 });
  });

  it('acceptance-recording failure with the database gone: passed on as unavailability (503), not a 500', async () => {
    const f = newFakes();
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    f.tasks.faults.set('updateIfOpen', refused);
    const { error, row } = await create(f);
    // The filter answers it 503 with Retry-After; the record and its hold stay for the sync worker.
    expect(error).toBe(refused);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(row).toMatchObject({ upstreamTaskId: 'up-1', billingState: 'held' });
    expect(f.account()).toEqual({ balance: 900, held: 100, inFlightTasks: 1 });
  });

  it('acceptance-recording failure on a task someone ended meanwhile: the last resort never reopens it', async () => {
    const f = newFakes();
    f.client.onSubmit = async () => {
      const id = f.client.submits[0].options!.clientReference!;
      await f.lifecycle.failByGateway(f.tasks.row(id), 'creation_unconfirmed', 'ended by the sync worker');
      // Then recording the acceptance fails (the snapshot's conditional write throws).
      f.tasks.faults.set('updateIfOpen', new Error('database went away'));
      return { upstreamTaskId: 'up-1', snapshot: snapshot({ state: 'queued' }) };
    };
    const { error, row } = await create(f);
    expect(gatewayError(error).status).toBe(500);
    expect(row).toMatchObject({ phase: 'failed', billingState: 'released', syncDueAt: null });
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
  });

  it('an accepted answer that ends the task at once settles it: charged, slot freed, callback queued', async () => {
    const f = newFakes();
    f.client.onSubmit = async () => ({
      upstreamTaskId: 'up-9',
      snapshot: snapshot({ state: 'succeeded', videos: [{ url: 'https://cdn/v.mp4' }] }),
    });
    const { task, row } = await create(f);
    expect(task?.phase).toBe('succeeded');
    expect(row).toMatchObject({ phase: 'succeeded', billingState: 'settled', finalCharge: 80 });
    expect(f.account()).toEqual({ balance: 920, held: 0, inFlightTasks: 0 });
    expect(f.callbacks.for(row!.id)).toHaveLength(1);
  });

  it('the concurrency cap: 429 before anything is held or sent', async () => {
    const f = newFakes();
    f.account().inFlightTasks = 2;
    const error = await f.engine.create(principal({ maxConcurrentTasks: 2 }), draft()).catch((e: unknown) => e);
    expect(gatewayError(error).status).toBe(429);
    expect(f.client.submits).toHaveLength(0);
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 2 });
  });

  it('an insufficient balance: 403 before the upstream is called', async () => {
    const f = newFakes();
    f.account().balance = 50;
    const error = await f.engine.create(principal(), draft()).catch((e: unknown) => e);
    expect(gatewayError(error).status).toBe(403);
    expect(f.client.submits).toHaveLength(0);
    expect(f.tasks.rows.size).toBe(0);
  });

  it('insufficient_quota states the available balance, the amount held and the price of the request', async () => {
    const f = newFakes();
    Object.assign(f.account(), { balance: 50, held: 30 });
    const error = await f.engine.create(principal(), draft()).catch((e: unknown) => e);
    expect(gatewayError(error)).toMatchObject({ status: 403, code: 'insufficient_quota' });
    expect(gatewayError(error).message).toMatch(
      /available balance 50, held for tasks in flight 30, price of this request 100 \(price units\)/,
    );
  });

  it('no channel for the family: 503 before anything is taken', async () => {
    const f = newFakes();
    f.upstreams.channels = [];
    const error = await f.engine.create(principal(), draft()).catch((e: unknown) => e);
    expect(gatewayError(error).status).toBe(503);
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
  });

  it('a creation the upstream refused or could not take gives its external_task_id back: the retry is created', async () => {
    for (const failure of [
      new UpstreamRejectedError(400, 1201, 'prompt too long'),
      new UpstreamUnavailableError('502 from upstream', 502),
    ]) {
      const f = newFakes();
      const accept = f.client.onSubmit;
      f.client.onSubmit = () => Promise.reject(failure);
      const first = await f.engine.create(principal(), draft({ externalTaskId: 'mine-1' })).catch((e: unknown) => e);
      expect(gatewayError(first).status).not.toBe(200);
      f.client.onSubmit = accept;
      const retried = await f.engine.create(principal(), draft({ externalTaskId: 'mine-1' }));
      expect(retried).toMatchObject({ phase: 'active', externalTaskId: 'mine-1' });
    }
  });

  it('a creation never confirmed upstream gives its external_task_id back once the sync worker ends it', async () => {
    const f = newFakes();
    f.client.onSubmit = () => Promise.reject(new UpstreamOutcomeUnknownError('timed out after sending'));
    await f.engine.create(principal(), draft({ externalTaskId: 'mine-1' })).catch(() => null);
    const id = f.client.submits[0].options!.clientReference!;
    // Unresolved, the record still holds the ID (the upstream may have the task).
    expect(f.tasks.row(id)).toMatchObject({ phase: 'submitting', externalTaskId: 'mine-1' });
    await f.lifecycle.failByGateway(f.tasks.row(id), 'creation_unconfirmed', 'never confirmed');
    expect(f.tasks.row(id)).toMatchObject({ phase: 'failed', externalTaskId: null });
  });

  it('a taken external_task_id: 400 on that field naming the task that holds it, nothing taken', async () => {
    const f = newFakes();
    const holder = f.seedTask({ externalTaskId: 'mine-1' });
    const error = await f.engine.create(principal(), draft({ externalTaskId: 'mine-1' })).catch((e: unknown) => e);
    expect(gatewayError(error).message).toContain(`already used by task ${holder.id}`);
  });

  it('a taken external_task_id: 400 on that field, nothing taken', async () => {
    const f = newFakes();
    f.seedTask({ externalTaskId: 'mine-1' });
    const before = { ...f.account() };
    const error = await f.engine.create(principal(), draft({ externalTaskId: 'mine-1' })).catch((e: unknown) => e);
    expect(gatewayError(error)).toMatchObject({ status: 400, param: 'external_task_id' });
    expect(f.account()).toEqual(before);
  });
});
