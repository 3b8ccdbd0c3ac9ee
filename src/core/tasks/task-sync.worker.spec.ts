import { newFakes } from '../../../test/support/fakes';
import { syncLeaseMs, TaskSyncWorker } from './task-sync.worker';

describe('TaskSyncWorker', () => {
  it('tasksInFlight is the number of open tasks when scraped, not the size of the cycle’s batch', async () => {
    const f = newFakes();
    const due = f.seedTask();
    f.seedTask({ syncDueAt: f.clock.nowMs() + 60_000 });
    f.seedTask({ syncDueAt: f.clock.nowMs() + 60_000 });
    f.seedTask({ phase: 'succeeded', syncDueAt: null, billingState: 'settled' });
    jest.spyOn(f.tasks, 'claimDue').mockResolvedValue([due]);
    const worker = new TaskSyncWorker(f.tasks, f.sync, f.metrics, f.clock, { ...f.config, WORKERS_ENABLED: false });
    worker.onApplicationBootstrap();
    expect(await worker.runCycle()).toBe(1);
    const gauge = await f.metrics.tasksInFlight.get();
    expect(gauge.values[0].value).toBe(3);
  });

  it('runs no count over the open tasks in its cycle (the gauge counts them when scraped)', async () => {
    const f = newFakes();
    jest.spyOn(f.tasks, 'claimDue').mockResolvedValue([]);
    const count = jest.spyOn(f.tasks, 'countOpen');
    const worker = new TaskSyncWorker(f.tasks, f.sync, f.metrics, f.clock, { ...f.config, WORKERS_ENABLED: false });
    worker.onApplicationBootstrap();
    await worker.runCycle();
    await worker.runCycle();
    expect(count).not.toHaveBeenCalled();
    f.seedTask();
    expect((await f.metrics.registry.getSingleMetricAsString('gateway_tasks_in_flight')).split('\n').pop()).toBe('gateway_tasks_in_flight 1');
    expect(count).toHaveBeenCalledTimes(1);
  });

  describe('lease', () => {
    const defaults = { SYNC_BATCH_SIZE: 50, SYNC_CONCURRENCY: 16, UPSTREAM_TIMEOUT_MS: 30_000, UPSTREAM_CONNECT_TIMEOUT_MS: 5_000, UPSTREAM_READ_TIMEOUT_MS: 10_000 };

    it("covers every wave of the batch at a poll's worst case (3 attempts of 10 s, 2 back-offs of at most 2 s), plus 10 s", () => {
      expect(syncLeaseMs(defaults)).toBe(4 * 34_000 + 10_000);
      // One wave: 44 s, raised to the one-minute floor.
      expect(syncLeaseMs({ ...defaults, SYNC_CONCURRENCY: 50 })).toBe(60_000);
      expect(syncLeaseMs({ ...defaults, UPSTREAM_READ_TIMEOUT_MS: 60_000, SYNC_BATCH_SIZE: 16 })).toBe(184_000 + 10_000);
    });

    it('is never under a minute: one task, short reads', () => {
      expect(syncLeaseMs({ ...defaults, UPSTREAM_READ_TIMEOUT_MS: 1_000 }, 1)).toBe(60_000);
    });

    it("is what the cycle's claim and a callback's claim ask for", async () => {
      const f = newFakes();
      const claimDue = jest.spyOn(f.tasks, 'claimDue').mockResolvedValue([]);
      const claimOne = jest.spyOn(f.tasks, 'claimOne').mockResolvedValue(null);
      const config = { ...f.config, ...defaults, WORKERS_ENABLED: false };
      const worker = new TaskSyncWorker(f.tasks, f.sync, f.metrics, f.clock, config);
      const now = f.clock.nowMs();
      await worker.runCycle();
      await worker.syncNow('task_x');
      expect(claimDue).toHaveBeenCalledWith(expect.any(String), now, now + 146_000, 50);
      expect(claimOne).toHaveBeenCalledWith('task_x', expect.any(String), now, now + 60_000);
    });
  });
});
