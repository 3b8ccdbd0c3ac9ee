import { newFakes } from '../../../test/fakes';
import { TaskSyncWorker } from './task-sync.worker';

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
});
