import { newFakes, snapshot } from '../../../test/fakes';

describe('TaskLifecycle', () => {
  it('applySnapshot, not terminal: records progress and schedules the next poll, hold kept', async () => {
    const f = newFakes();
    const task = f.seedTask();
    const result = await f.lifecycle.applySnapshot(task, snapshot({ state: 'running', progress: 40 }));
    expect(result).toMatchObject({ phase: 'active', progress: 40, outerStatus: 'IN_PROGRESS', syncAttempts: 1 });
    const row = f.tasks.row(task.id);
    expect(row).toMatchObject({ phase: 'active', progress: 40, billingState: 'held', leaseOwner: null });
    expect(row.syncDueAt).toBeGreaterThan(f.clock.nowMs());
    expect(f.account().inFlightTasks).toBe(1);
  });

  it('applySnapshot on a task someone already ended: the ended row is returned, never reopened', async () => {
    const f = newFakes();
    const task = f.seedTask();
    await f.lifecycle.failByGateway(f.tasks.row(task.id), 'deadline_exceeded', 'late');
    const result = await f.lifecycle.applySnapshot(task, snapshot({ state: 'running' }));
    expect(result.phase).toBe('failed');
    expect(f.tasks.row(task.id)).toMatchObject({ phase: 'failed', syncDueAt: null });
  });

  it('succeeded: settles at the final charge, frees the slot, queues the callback', async () => {
    const f = newFakes();
    const task = f.seedTask();
    const result = await f.lifecycle.applySnapshot(
      task,
      snapshot({ state: 'succeeded', videos: [{ url: 'https://cdn/v.mp4' }] }),
    );
    expect(result).toMatchObject({
      phase: 'succeeded',
      progress: 100,
      outerStatus: 'SUCCESS',
      billingState: 'settled',
      finalCharge: 80,
    });
    expect(f.tasks.row(task.id)).toMatchObject({
      phase: 'succeeded',
      billingState: 'settled',
      finalCharge: 80,
      syncDueAt: null,
      result: { videos: [{ url: 'https://cdn/v.mp4' }], voices: [] },
    });
    expect(f.account()).toEqual({ balance: 920, held: 0, inFlightTasks: 0 });
    expect(f.ledgerRepository.usage).toHaveLength(1);
    expect(f.callbacks.for(task.id)).toHaveLength(1);
  });

  it('succeeded with a pricing fault: settles at the held estimate rather than leaving the hold open', async () => {
    const f = newFakes();
    f.pricing.final = () => Promise.reject(new Error('no such price version'));
    const task = f.seedTask();
    await f.lifecycle.applySnapshot(task, snapshot({ state: 'succeeded' }));
    expect(f.tasks.row(task.id)).toMatchObject({ billingState: 'settled', finalCharge: 100 });
    expect(f.account()).toEqual({ balance: 900, held: 0, inFlightTasks: 0 });
  });

  it('failed upstream: releases the hold, frees the slot, queues the callback with the upstream failure', async () => {
    const f = newFakes();
    const task = f.seedTask();
    await f.lifecycle.applySnapshot(task, snapshot({ state: 'failed', failureCode: 'nsfw', failureReason: 'blocked' }));
    expect(f.tasks.row(task.id)).toMatchObject({
      phase: 'failed',
      failureCode: 'nsfw',
      failureReason: 'blocked',
      billingState: 'released',
    });
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
    expect(f.callbacks.for(task.id)).toHaveLength(1);
  });

  it('reject: ends the task rejected in the family failure word, nothing charged', async () => {
    const f = newFakes();
    const task = f.seedTask({ phase: 'submitting', upstreamTaskId: null });
    const result = await f.lifecycle.reject(task, '1201', 'bad prompt');
    expect(result).toMatchObject({
      phase: 'rejected',
      nativeStatus: 'FAILED',
      outerStatus: 'FAILURE',
      billingState: 'released',
    });
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
  });

  it('a second finisher changes nothing: no second release, slot or callback', async () => {
    const f = newFakes();
    f.seedTask({ id: 'task_other' }); // a second in-flight task, so a double slot release would show
    const task = f.seedTask();
    await f.lifecycle.failByGateway(task, 'deadline_exceeded', 'late');
    const again = await f.lifecycle.applySnapshot(task, snapshot({ state: 'succeeded' }));
    expect(again.phase).toBe('failed');
    expect(f.tasks.row(task.id)).toMatchObject({ phase: 'failed', billingState: 'released' });
    expect(f.account()).toEqual({ balance: 900, held: 100, inFlightTasks: 1 });
    expect(f.ledgerRepository.kinds(task.id)).toEqual(['release']);
    expect(f.callbacks.for(task.id)).toHaveLength(1);
  });

  it('a finisher whose hold was already closed (adopted task) frees the slot but leaves billing as it was', async () => {
    const f = newFakes();
    const task = f.seedTask();
    await f.ledger.release(task.accountId, task.id, task.estimatedCharge, 'adopted without charge');
    await f.lifecycle.applySnapshot(task, snapshot({ state: 'succeeded' }));
    expect(f.tasks.row(task.id)).toMatchObject({ phase: 'succeeded', billingState: 'released', finalCharge: null });
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
  });

  it('completeEnding: a terminal task still holding its estimate is closed once, slot and callback included', async () => {
    const f = newFakes();
    const task = f.seedTask({ phase: 'failed', failureCode: 'x' });
    f.account().inFlightTasks = 1; // the slot its crashed ending never gave back
    expect(await f.lifecycle.completeEnding(task)).toBe(true);
    expect(await f.lifecycle.completeEnding(task)).toBe(false);
    expect(f.tasks.row(task.id).billingState).toBe('released');
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
    expect(f.callbacks.for(task.id)).toHaveLength(1);
  });

  describe('first poll', () => {
    /** Four tasks of the kind that each ran `runMs`, then the first poll delay of a new one. */
    async function firstDelayAfter(runMs: number, env: Record<string, string> = {}): Promise<number> {
      const f = newFakes(env);
      for (let i = 0; i < 4; i++) {
        const task = f.seedTask({ createdAt: f.clock.nowMs() });
        f.clock.advance(runMs);
        await f.lifecycle.applySnapshot(task, snapshot({ state: 'succeeded' }));
      }
      const fresh = f.seedTask({ createdAt: f.clock.nowMs(), syncAttempts: 0 });
      await f.lifecycle.applySnapshot(fresh, snapshot({ state: 'queued' }));
      return f.tasks.row(fresh.id).syncDueAt! - f.clock.nowMs();
    }

    it('comes at the usual run time of the kind once tasks of it have finished', async () => {
      const delay = await firstDelayAfter(40_000);
      expect(delay).toBeGreaterThanOrEqual(0.95 * 40_000);
      expect(delay).toBeLessThanOrEqual(1.05 * 40_000);
    });

    it('then backs off again from a twentieth of that run time (or the base, if longer)', async () => {
      const f = newFakes();
      for (let i = 0; i < 4; i++) {
        const task = f.seedTask({ createdAt: f.clock.nowMs() });
        f.clock.advance(200_000);
        await f.lifecycle.applySnapshot(task, snapshot({ state: 'succeeded' }));
      }
      const task = f.seedTask({ createdAt: f.clock.nowMs(), syncAttempts: 1 });
      await f.lifecycle.applySnapshot(task, snapshot({ state: 'running' }));
      const second = f.tasks.row(task.id).syncDueAt! - f.clock.nowMs();
      expect(second).toBeGreaterThanOrEqual(0.8 * 10_000);
      expect(second).toBeLessThanOrEqual(1.2 * 10_000);
      await f.lifecycle.applySnapshot(f.tasks.row(task.id), snapshot({ state: 'running' }));
      const third = f.tasks.row(task.id).syncDueAt! - f.clock.nowMs();
      expect(third).toBeGreaterThanOrEqual(0.8 * 15_000);
      expect(third).toBeLessThanOrEqual(1.2 * 15_000);
    });

    it.each([
      ['tasks of the kind are quicker than the base delay', 200, {}],
      ['learning is off', 120_000, { SYNC_FIRST_POLL_LEARNED: 'false' }],
    ])('stays at the base delay when %s', async (_name, runMs, env) => {
      const delay = await firstDelayAfter(runMs as number, env as Record<string, string>);
      expect(delay).toBeGreaterThanOrEqual(800);
      expect(delay).toBeLessThanOrEqual(1200);
    });

    it('is capped at the longest poll delay', async () => {
      expect(await firstDelayAfter(3_600_000)).toBe(60_000);
    });
  });
});
