import { Logger } from '@nestjs/common';
import { CHANNEL, Fakes, newFakes, snapshot } from '../../../test/fakes';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import {
  UpstreamCredentialsRefusedError,
  UpstreamTaskNotFoundError,
  UpstreamUnavailableError,
} from '../../upstream/upstream.types';
import { DEFAULT_PG_SYNC_WRITES, TaskSyncService } from './task-sync.service';

/** The task ended failed with `failureCode`, its hold released. */
function expectFailedReleased(f: Fakes, taskId: string, failureCode: string): void {
  expect(f.tasks.row(taskId)).toMatchObject({ phase: 'failed', failureCode, billingState: 'released' });
}

/** The task still holds its amount, its lease given back, and is due again after a back-off. */
function expectHeldDueLater(f: Fakes, taskId: string, fields: Record<string, unknown>): void {
  const row = f.tasks.row(taskId);
  expect(row).toMatchObject({ billingState: 'held', leaseOwner: null, ...fields });
  expect(row.syncDueAt).toBeGreaterThan(f.clock.nowMs());
}

describe('TaskSyncService.sync', () => {
  it('poll: a running snapshot keeps the task active and schedules the next poll', async () => {
    const f = newFakes();
    const task = f.seedTask();
    const result = await f.sync.sync(task);
    expect(result.phase).toBe('active');
    expectHeldDueLater(f, task.id, { phase: 'active', nativeStatus: 'RUNNING', syncAttempts: 1 });
    expect(f.client.fetches).toEqual([{ operation: 'r2v', id: 'up-1' }]);
  });

  it('deadline: a task the upstream still runs ends as deadline_exceeded after the final fetch, hold released, slot freed, callback queued', async () => {
    const f = newFakes();
    const task = f.seedTask({ deadlineAt: f.clock.nowMs() + 1000 });
    f.clock.advance(1000);
    await f.sync.sync(task);
    expect(f.tasks.row(task.id)).toMatchObject({
      phase: 'failed',
      failureCode: 'deadline_exceeded',
      billingState: 'released',
      syncDueAt: null,
      nativeStatus: 'FAILED',
    });
    expect(f.client.fetches).toHaveLength(1);
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
    expect(f.callbacks.for(task.id)).toHaveLength(1);
  });

  it('deadline: a task that succeeded just before its deadline is settled, not failed (fetch before the deadline check)', async () => {
    const f = newFakes();
    f.client.onFetch = async () => snapshot({ state: 'succeeded', videos: [{ url: 'https://cdn/v.mp4' }] });
    const task = f.seedTask({ deadlineAt: f.clock.nowMs() + 1000 });
    f.clock.advance(1000);
    await f.sync.sync(task);
    expect(f.tasks.row(task.id)).toMatchObject({ phase: 'succeeded', billingState: 'settled', finalCharge: 80 });
  });

  it('deadline: an upstream that cannot be read past the deadline ends the task', async () => {
    const f = newFakes();
    f.client.onFetch = () => Promise.reject(new UpstreamUnavailableError('down', 503));
    const task = f.seedTask({ deadlineAt: f.clock.nowMs() + 1000 });
    f.clock.advance(1000);
    await f.sync.sync(task);
    expectFailedReleased(f, task.id, 'deadline_exceeded');
  });

  it('reconcile, upstream cannot look up by reference: creation_unconfirmed, hold released, slot freed', async () => {
    const f = newFakes();
    const task = f.seedTask({ phase: 'submitting', upstreamTaskId: null });
    await f.sync.sync(task);
    expectFailedReleased(f, task.id, 'creation_unconfirmed');
    expect(f.client.fetches).toHaveLength(0);
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
    // The caller was told the creation failed and never got this ID: no client callback.
    expect(f.callbacks.for(task.id)).toHaveLength(0);
  });

  it('reconcile, the upstream has it: adopted without charge (hold released), active with its upstream ID, slot kept', async () => {
    const f = newFakes();
    f.families.lookUpByReference = true;
    f.client.onFetch = async () => snapshot({ state: 'running', upstreamTaskId: 'up-adopted' });
    const task = f.seedTask({ phase: 'submitting', upstreamTaskId: null });
    await f.sync.sync(task);
    expect(f.client.fetches).toEqual([{ operation: 'r2v', id: task.id }]);
    expect(f.tasks.row(task.id)).toMatchObject({
      phase: 'active',
      upstreamTaskId: 'up-adopted',
      billingState: 'released',
    });
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 1 });
    // When it later succeeds, nothing is charged and the slot is freed once.
    f.client.onFetch = async () => snapshot({ state: 'succeeded', videos: [{ url: 'https://cdn/v.mp4' }] });
    await f.sync.sync(f.tasks.row(task.id));
    expect(f.tasks.row(task.id)).toMatchObject({ phase: 'succeeded', billingState: 'released' });
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
    expect(f.ledgerRepository.kinds(task.id)).not.toContain('charge');
  });

  it('reconcile, the upstream does not know it: creation_unconfirmed, hold released', async () => {
    const f = newFakes();
    f.families.lookUpByReference = true;
    f.client.onFetch = () => Promise.reject(new UpstreamTaskNotFoundError('404'));
    const task = f.seedTask({ phase: 'submitting', upstreamTaskId: null });
    await f.sync.sync(task);
    expectFailedReleased(f, task.id, 'creation_unconfirmed');
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
  });

  it('reconcile, the lookup fails otherwise: retried later, still submitting with its hold', async () => {
    const f = newFakes();
    f.families.lookUpByReference = true;
    f.client.onFetch = () => Promise.reject(new UpstreamUnavailableError('503'));
    const task = f.seedTask({ phase: 'submitting', upstreamTaskId: null });
    await f.sync.sync(task);
    expectHeldDueLater(f, task.id, { phase: 'submitting', syncAttempts: 1 });
    expect(f.account()).toEqual({ balance: 900, held: 100, inFlightTasks: 1 });
  });

  it('channel removed: ends the task as channel_removed, hold released', async () => {
    const f = newFakes();
    const task = f.seedTask({ channelId: 'gone' });
    await f.sync.sync(task);
    expectFailedReleased(f, task.id, 'channel_removed');
    expect(f.account().inFlightTasks).toBe(0);
  });

  it('retry later: an unavailable upstream keeps the task active and held, due after a back-off', async () => {
    const f = newFakes();
    f.client.onFetch = () => Promise.reject(new UpstreamUnavailableError('502', 502));
    const task = f.seedTask({ syncAttempts: 2 });
    await f.sync.sync(task);
    expectHeldDueLater(f, task.id, { phase: 'active', syncAttempts: 3, leaseUntil: null });
    expect(f.account()).toEqual({ balance: 900, held: 100, inFlightTasks: 1 });
    expect(f.callbacks.queued).toHaveLength(0);
  });

  it("a query refused with the channel's own credentials: the task waits, however often; the directory hears of it", async () => {
    const f = newFakes();
    const refused = new UpstreamCredentialsRefusedError(
      'Upstream channel ax-default refused its credentials (HTTP 403, AccessDenied): Access denied.',
      403,
      'AccessDenied',
    );
    f.client.onFetch = () => Promise.reject(refused);
    const told = jest.spyOn(f.upstreams, 'queryEnded');
    let task = f.seedTask();
    for (let i = 0; i < 12; i++) {
      task = await f.sync.sync(f.tasks.row(task.id));
      f.clock.advance(60_000);
    }
    expect(f.tasks.row(task.id)).toMatchObject({ phase: 'active', billingState: 'held', syncAttempts: 12 });
    expect(told).toHaveBeenCalledWith(expect.objectContaining({ id: task.channelId }), refused);
    f.client.onFetch = async () => snapshot({ state: 'running' });
    await f.sync.sync(f.tasks.row(task.id));
    expect(told).toHaveBeenLastCalledWith(expect.objectContaining({ id: task.channelId }));
  });

  it('a failed task query is one WARN line: family, channel, HTTP status, the upstream message, task ID', async () => {
    const f = newFakes();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      f.client.onFetch = () => Promise.reject(new UpstreamUnavailableError('answered HTTP 502', 502));
      const task = f.seedTask();
      await f.sync.sync(task);
      const lines = warn.mock.calls.filter(([fields]) => (fields as { taskId?: string }).taskId === task.id);
      expect(lines).toHaveLength(1);
      expect(lines[0][0]).toMatchObject({
        family: task.family,
        channel: task.channelId,
        status: 502,
        message: 'answered HTTP 502',
        taskId: task.id,
      });
    } finally {
      warn.mockRestore();
    }
  });

  it('retry later on a task someone ended during the poll: the ended task is not made due again', async () => {
    const f = newFakes();
    const task = f.seedTask();
    f.client.onFetch = async () => {
      // e.g. the upstream's callback ended it while this poll was on the wire
      await f.lifecycle.applySnapshot(f.tasks.row(task.id), snapshot({ state: 'failed' }));
      throw new UpstreamUnavailableError('502', 502);
    };
    await f.sync.sync(task);
    expect(f.tasks.row(task.id)).toMatchObject({ phase: 'failed', syncDueAt: null, syncAttempts: 0 });
  });

  it('not found under budget: retried; at the budget: upstream_task_lost with the hold released', async () => {
    const f = newFakes();
    f.client.onFetch = () => Promise.reject(new UpstreamTaskNotFoundError('404'));
    const task = f.seedTask({ syncAttempts: 3 });
    await f.sync.sync(task);
    expect(f.tasks.row(task.id)).toMatchObject({ phase: 'active', syncAttempts: 4 });
    await f.sync.sync(f.tasks.row(task.id));
    expectFailedReleased(f, task.id, 'upstream_task_lost');
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
  });

  it('a terminal snapshot ends the task through the lifecycle: settled, slot freed, callback queued', async () => {
    const f = newFakes();
    f.client.onFetch = async () =>
      snapshot({ state: 'succeeded', videos: [{ url: 'https://cdn/v.mp4', durationSeconds: 4 }] });
    const task = f.seedTask();
    await f.sync.sync(task);
    expect(f.tasks.row(task.id)).toMatchObject({
      phase: 'succeeded',
      billingState: 'settled',
      finalCharge: 80,
      syncDueAt: null,
    });
    expect(f.account()).toEqual({ balance: 920, held: 0, inFlightTasks: 0 });
    expect(f.callbacks.for(task.id)).toHaveLength(1);
    expect(CHANNEL.id).toBe(task.channelId);
  });

  /**
   * Six syncs at once, each write held until released: which writes started while the first were held, and the most at
   * once.
   */
  async function burstOfSix(env: Record<string, string>, database: 'PostgreSQL' | 'SQLite') {
    const f = newFakes(env);
    const sync = new TaskSyncService(
      f.tasks,
      f.lifecycle,
      f.upstreams,
      f.ledger,
      f.families,
      f.clock,
      { isPostgres: database === 'PostgreSQL' } as TransactionRunner,
      f.config,
    );
    const tasks = Array.from({ length: 6 }, (_, i) => f.seedTask({ upstreamTaskId: `up-${i + 1}` }));
    let writing = 0;
    let most = 0;
    const started: string[] = [];
    const gates: Array<() => void> = [];
    const apply = f.lifecycle.applySnapshot.bind(f.lifecycle);
    jest.spyOn(f.lifecycle, 'applySnapshot').mockImplementation(async (task, snap) => {
      started.push(task.id);
      most = Math.max(most, ++writing);
      await new Promise<void>((resolve) => gates.push(resolve));
      writing -= 1;
      return apply(task, snap);
    });
    const syncs = tasks.map((task) => sync.sync(task));
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await settle();
    const fetchedAtFirst = f.client.fetches.length;
    const startedAtFirst = [...started];
    while (gates.length > 0) {
      gates.shift()!();
      await settle();
    }
    const results = await Promise.all(syncs);
    return { f, tasks, fetchedAtFirst, startedAtFirst, started, most, results };
  }

  it('writes at most SYNC_WRITE_CONCURRENCY outcomes at a time, in arrival order, without holding back the upstream calls', async () => {
    const run = await burstOfSix({ SYNC_WRITE_CONCURRENCY: '2' }, 'SQLite');
    // Every upstream call went out; two outcomes were being written, the other four waited their turn.
    expect(run.fetchedAtFirst).toBe(6);
    expect(run.startedAtFirst).toEqual([run.tasks[0].id, run.tasks[1].id]);
    expect(run.most).toBe(2);
    expect(run.started).toEqual(run.tasks.map((t) => t.id));
    expect(run.results.map((r) => r.phase)).toEqual(Array(6).fill('active'));
    expect(run.tasks.map((t) => run.f.tasks.row(t.id).syncAttempts)).toEqual(Array(6).fill(1));
  });

  it(`unset, the bound is ${DEFAULT_PG_SYNC_WRITES} on PostgreSQL and none on SQLite`, async () => {
    const pg = await burstOfSix({}, 'PostgreSQL');
    expect(pg.startedAtFirst).toHaveLength(DEFAULT_PG_SYNC_WRITES);
    expect(pg.most).toBe(DEFAULT_PG_SYNC_WRITES);
    const sqlite = await burstOfSix({}, 'SQLite');
    expect(sqlite.startedAtFirst).toHaveLength(6);
    expect(sqlite.results.map((r) => r.phase)).toEqual(Array(6).fill('active'));
  });

  it('a write that fails frees its turn: the failed sync is recorded as a retry and the next write runs', async () => {
    const f = newFakes({ SYNC_WRITE_CONCURRENCY: '1' });
    const [first, second] = [f.seedTask({ upstreamTaskId: 'up-1' }), f.seedTask({ upstreamTaskId: 'up-2' })];
    f.tasks.faults.set('updateIfOpen', new Error('database went away'));
    const [a, b] = await Promise.all([f.sync.sync(first), f.sync.sync(second)]);
    // The first write failed once: its sync is recorded as failed (retry later); the second wrote normally.
    expect(f.tasks.row(a.id)).toMatchObject({ phase: 'active', syncAttempts: 1, nativeStatus: 'RUNNING' });
    expect(f.tasks.row(b.id)).toMatchObject({ phase: 'active', syncAttempts: 1 });
    expect(f.tasks.faults.size).toBe(0);
  });
});
