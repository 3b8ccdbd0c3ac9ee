import { newFakes } from '../../../test/fakes';
import { RENEW_EVERY_MS, SYNC_LEASE_MS, TaskSyncWorker } from './task-sync.worker';

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
    expect((await f.metrics.registry.getSingleMetricAsString('gateway_tasks_in_flight')).split('\n').pop()).toBe(
      'gateway_tasks_in_flight 1',
    );
    expect(count).toHaveBeenCalledTimes(1);
  });

  describe('leases', () => {
    /** A worker whose syncs of the named tasks wait until released; the others end at once. */
    function workerWithSlowSyncs(slowIds: string[]) {
      const f = newFakes();
      const release = new Map<string, () => void>();
      jest.spyOn(f.sync, 'sync').mockImplementation(async (task) => {
        if (slowIds.includes(task.id)) await new Promise<void>((resolve) => release.set(task.id, resolve));
        await f.tasks.updateIfOpen(task.id, {
          leaseOwner: null,
          leaseUntil: null,
          syncDueAt: f.clock.nowMs() + 60_000,
        });
        return task;
      });
      const worker = new TaskSyncWorker(f.tasks, f.sync, f.metrics, f.clock, { ...f.config, WORKERS_ENABLED: false });
      return { f, worker, release };
    }

    it('a sync still running after a renewal period keeps its task: the lease is renewed, the ended sync’s is not', async () => {
      const { f, worker, release } = workerWithSlowSyncs(['task_2']);
      const quick = f.seedTask({ leaseOwner: null, leaseUntil: null });
      const slow = f.seedTask({ leaseOwner: null, leaseUntil: null });
      const renew = jest.spyOn(f.tasks, 'renewLease');
      const cycle = worker.runCycle();
      await new Promise((resolve) => setImmediate(resolve));
      const leasedAt = f.clock.nowMs();
      expect(f.tasks.row(slow.id).leaseUntil).toBe(leasedAt + SYNC_LEASE_MS);
      expect(f.tasks.row(quick.id).leaseOwner).toBeNull(); // its sync ended and gave the lease up

      // Within the first period nothing is renewed: most syncs end in milliseconds and cost no statement.
      f.clock.advance(RENEW_EVERY_MS - 1);
      await worker.renewLeases();
      expect(renew).not.toHaveBeenCalled();

      f.clock.advance(1);
      await worker.renewLeases();
      expect(renew).toHaveBeenCalledTimes(1);
      expect(f.tasks.row(slow.id).leaseUntil).toBe(leasedAt + RENEW_EVERY_MS + SYNC_LEASE_MS);
      // Another worker cannot take it while the renewed lease runs, past the first lease's end.
      f.clock.advance(SYNC_LEASE_MS);
      expect(await f.tasks.claimDue('other-worker', f.clock.nowMs(), f.clock.nowMs() + SYNC_LEASE_MS, 10)).toEqual([]);

      release.get(slow.id)?.();
      await cycle;
      f.clock.advance(RENEW_EVERY_MS);
      await worker.renewLeases();
      expect(renew).toHaveBeenCalledTimes(1);
      expect(f.tasks.row(slow.id).leaseOwner).toBeNull();
    });

    it('a dead worker’s task comes back 15 s after its lease, not renewed, was taken', async () => {
      const { f, worker } = workerWithSlowSyncs(['task_1']);
      const task = f.seedTask({ leaseOwner: null, leaseUntil: null });
      void worker.runCycle(); // never renews: the process "died" mid-sync
      await new Promise((resolve) => setImmediate(resolve));
      f.clock.advance(15_000);
      expect(await f.tasks.claimDue('next-life', f.clock.nowMs(), f.clock.nowMs() + SYNC_LEASE_MS, 10)).toEqual([]);
      f.clock.advance(1);
      const [taken] = await f.tasks.claimDue('next-life', f.clock.nowMs(), f.clock.nowMs() + SYNC_LEASE_MS, 10);
      expect(taken).toMatchObject({ id: task.id, leaseOwner: 'next-life' });
    });

    it('stops renewing a lease another worker took over, and a failed renewal is tried again', async () => {
      const { f, worker } = workerWithSlowSyncs(['task_1']);
      const task = f.seedTask({ leaseOwner: null, leaseUntil: null });
      void worker.runCycle();
      await new Promise((resolve) => setImmediate(resolve));
      const renew = jest.spyOn(f.tasks, 'renewLease');
      f.clock.advance(RENEW_EVERY_MS);
      f.tasks.faults.set('renewLease', new Error('database down'));
      await worker.renewLeases();
      f.clock.advance(RENEW_EVERY_MS);
      await worker.renewLeases();
      expect(f.tasks.row(task.id).leaseUntil).toBe(f.clock.nowMs() + SYNC_LEASE_MS);
      await f.tasks.update(task.id, { leaseOwner: 'other-worker' });
      f.clock.advance(RENEW_EVERY_MS);
      await worker.renewLeases();
      f.clock.advance(RENEW_EVERY_MS);
      await worker.renewLeases();
      expect(renew).toHaveBeenCalledTimes(3);
      expect(f.tasks.row(task.id).leaseOwner).toBe('other-worker');
    });
  });
});
