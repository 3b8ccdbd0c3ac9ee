import { newFakes, snapshot } from '../../../test/fakes/task-engine';
import { GatewayError } from '../../platform/errors';
import {
  UpstreamRejectedError,
  UpstreamTaskNotFoundError,
  UpstreamUnavailableError,
} from '../../upstream/upstream.types';
import type { AuditTrail } from '../audit/audit.service';
import type { AuditChange, ChangeOrigin } from '../audit/audit.types';
import { TaskCancellation } from './task-cancellation.service';

const OPERATOR: ChangeOrigin = { actor: { id: 'op_1', name: 'Olga', role: 'operator' }, requestId: 'req-1', ip: null };

function setUp(cancel?: (id: string) => Promise<void>) {
  const f = newFakes();
  const calls: string[] = [];
  if (cancel)
    Object.assign(f.client, {
      cancel: (_channel: unknown, _operation: string, id: string) => {
        calls.push(id);
        return cancel(id);
      },
    });
  const entries: Array<{ inTransaction: boolean; origin: ChangeOrigin; change: AuditChange }> = [];
  const audit = {
    record: (tx: unknown, origin: ChangeOrigin, change: AuditChange) => {
      entries.push({ inTransaction: tx !== undefined, origin, change });
      return Promise.resolve({});
    },
  } as unknown as AuditTrail;
  const cancellation = new TaskCancellation(f.lifecycle, f.upstreams, f.families, f.transactions, audit);
  return { f, calls, entries, cancellation };
}

async function refusal(work: Promise<unknown>): Promise<GatewayError> {
  const error: unknown = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe('TaskCancellation', () => {
  it('a vendor that cancels: the task ends cancelled, the hold is released, the slot freed, the callback queued', async () => {
    const { f, calls, cancellation } = setUp(() => Promise.resolve());
    const task = f.seedTask({ nativeStatus: 'PENDING' });
    expect(f.account()).toEqual({ balance: 900, held: 100, inFlightTasks: 1 });

    const result = await cancellation.cancel(task, { kind: 'owner' });

    expect(calls).toEqual(['up-1']);
    expect(result.alreadyCancelled).toBe(false);
    expect(f.tasks.row(task.id)).toMatchObject({
      phase: 'cancelled',
      outerStatus: 'FAILURE',
      nativeStatus: 'FAILED',
      failureCode: 'cancelled',
      failureReason: "The task was cancelled at its owner's request; nothing was charged.",
      billingState: 'released',
      finalCharge: null,
      syncDueAt: null,
    });
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
    expect(f.ledgerRepository.usage).toHaveLength(0);
    expect(f.callbacks.for(task.id)).toHaveLength(1);
    expect(f.callbacks.for(task.id)[0].phase).toBe('cancelled');
  });

  it('a vendor without a cancel: 409 cannot_cancel saying so, the task untouched', async () => {
    const { f, cancellation } = setUp();
    const task = f.seedTask();
    const error = await refusal(cancellation.cancel(task, { kind: 'owner' }));
    expect(error).toMatchObject({ status: 409, code: 'cannot_cancel' });
    expect(error.message).toMatch(/offers no way to cancel/);
    expect(f.tasks.row(task.id)).toMatchObject({ phase: 'active', billingState: 'held' });
    expect(f.account()).toEqual({ balance: 900, held: 100, inFlightTasks: 1 });
  });

  it('a vendor refusing in the task state: 409 with its reason, the task goes on', async () => {
    const { f, cancellation } = setUp(() =>
      Promise.reject(new UpstreamRejectedError(400, 'BadRequest', 'task state is scheduled, can not cancel')),
    );
    const task = f.seedTask();
    const error = await refusal(cancellation.cancel(task, { kind: 'owner' }));
    expect(error).toMatchObject({ status: 409, code: 'cannot_cancel' });
    expect(error.message).toContain('task state is scheduled, can not cancel');
    expect(f.tasks.row(task.id)).toMatchObject({ phase: 'active', billingState: 'held' });
    expect(f.callbacks.for(task.id)).toHaveLength(0);
  });

  it('a vendor that no longer knows the task: 409; one that does not answer or throttles: 503; nothing changes', async () => {
    const lost = setUp(() => Promise.reject(new UpstreamTaskNotFoundError('gone')));
    const t1 = lost.f.seedTask();
    expect(await refusal(lost.cancellation.cancel(t1, { kind: 'owner' }))).toMatchObject({
      status: 409,
      code: 'cannot_cancel',
    });
    const down = setUp(() => Promise.reject(new UpstreamUnavailableError('HTTP 500')));
    const t2 = down.f.seedTask();
    expect(await refusal(down.cancellation.cancel(t2, { kind: 'owner' }))).toMatchObject({
      status: 503,
      code: 'service_unavailable',
    });
    expect(down.f.tasks.row(t2.id)).toMatchObject({ phase: 'active', billingState: 'held' });
    const throttled = setUp(() => Promise.reject(new UpstreamRejectedError(429, 'Throttling', 'slow down')));
    const t3 = throttled.f.seedTask();
    expect(await refusal(throttled.cancellation.cancel(t3, { kind: 'owner' }))).toMatchObject({ status: 503 });
  });

  it('a cancelled task again: answered as it is, the vendor not asked; a task ended otherwise: 409 naming how', async () => {
    const { f, calls, cancellation } = setUp(() => Promise.resolve());
    const task = f.seedTask();
    const first = await cancellation.cancel(task, { kind: 'owner' });
    const second = await cancellation.cancel(f.tasks.row(task.id), { kind: 'owner' });
    expect(second).toMatchObject({ alreadyCancelled: true, task: { phase: 'cancelled' } });
    expect(calls).toHaveLength(1);
    expect(f.callbacks.for(task.id)).toHaveLength(1);
    expect(first.task.phase).toBe('cancelled');

    const done = f.seedTask();
    await f.lifecycle.applySnapshot(done, snapshot({ state: 'succeeded' }));
    const error = await refusal(cancellation.cancel(f.tasks.row(done.id), { kind: 'owner' }));
    expect(error).toMatchObject({ status: 409, code: 'cannot_cancel', message: 'The task already ended: succeeded.' });
    expect(calls).toHaveLength(1);
  });

  it('a creation the upstream has not confirmed: 409, the vendor not asked', async () => {
    const { f, calls, cancellation } = setUp(() => Promise.resolve());
    const task = f.seedTask({ phase: 'submitting', upstreamTaskId: null });
    expect(await refusal(cancellation.cancel(task, { kind: 'owner' }))).toMatchObject({ code: 'cannot_cancel' });
    expect(calls).toHaveLength(0);
  });

  it("an operator's cancel is audited as task.cancel inside the ending's transaction", async () => {
    const { f, entries, cancellation } = setUp(() => Promise.resolve());
    const task = f.seedTask();
    await cancellation.cancel(task, { kind: 'operator', origin: OPERATOR });
    expect(entries).toEqual([
      {
        inTransaction: true,
        origin: OPERATOR,
        change: {
          action: 'task.cancel',
          target: { type: 'task', id: task.id, accountId: task.accountId },
          before: { status: 'active', billing_state: 'held' },
          after: { status: 'cancelled', billing_state: 'released' },
        },
      },
    ]);
    expect(f.tasks.row(task.id).failureReason).toBe('The task was cancelled by an operator; nothing was charged.');

    // A repeat changes nothing and is recorded with `before` equal to `after`.
    const again = await cancellation.cancel(f.tasks.row(task.id), { kind: 'operator', origin: OPERATOR });
    expect(again.alreadyCancelled).toBe(true);
    expect(entries[1].change).toMatchObject({
      before: { status: 'cancelled', billing_state: 'released' },
      after: { status: 'cancelled', billing_state: 'released' },
    });
  });

  it('the sync worker ends it cancelled while the vendor accepts: released once, callback once, still audited', async () => {
    const { f, entries, cancellation } = setUp(async () => {
      // The vendor now shows the task cancelled, and the sync worker reads it first.
      await f.lifecycle.applySnapshot(
        f.tasks.row('task_1'),
        snapshot({ state: 'cancelled', nativeStatus: 'CANCELED' }),
      );
    });
    const task = f.seedTask();
    const result = await cancellation.cancel(task, { kind: 'operator', origin: OPERATOR });
    expect(result).toMatchObject({ alreadyCancelled: false, task: { phase: 'cancelled', billingState: 'released' } });
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
    expect(f.ledgerRepository.entries.filter((e) => e.taskId === task.id && e.kind === 'release')).toHaveLength(1);
    expect(f.callbacks.for(task.id)).toHaveLength(1);
    expect(entries.map((e) => e.change.action)).toEqual(['task.cancel']);
  });

  it('the task finishes while the cancel is asked: it is charged once as succeeded and the cancel answers 409', async () => {
    const { f, cancellation } = setUp(async () => {
      await f.lifecycle.applySnapshot(f.tasks.row('task_1'), snapshot({ state: 'succeeded' }));
    });
    const task = f.seedTask();
    const error = await refusal(cancellation.cancel(task, { kind: 'owner' }));
    expect(error).toMatchObject({ status: 409, message: 'The task already ended: succeeded.' });
    expect(f.tasks.row(task.id)).toMatchObject({ phase: 'succeeded', billingState: 'settled' });
    expect(f.ledgerRepository.usage).toHaveLength(1);
    expect(f.callbacks.for(task.id)).toHaveLength(1);
  });
});
