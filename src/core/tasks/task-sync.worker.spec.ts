import { newFakes } from '../../../test/support/fakes';
import { TaskSyncWorker } from './task-sync.worker';

describe('TaskSyncWorker', () => {
  it('tasksInFlight is the number of open tasks, not the size of the cycle’s batch', async () => {
    const f = newFakes();
    const due = f.seedTask();
    f.seedTask({ syncDueAt: f.clock.nowMs() + 60_000 });
    f.seedTask({ syncDueAt: f.clock.nowMs() + 60_000 });
    f.seedTask({ phase: 'succeeded', syncDueAt: null, billingState: 'settled' });
    jest.spyOn(f.tasks, 'claimDue').mockResolvedValue([due]);
    const worker = new TaskSyncWorker(f.tasks, f.sync, f.metrics, f.clock, f.config);
    expect(await worker.runCycle()).toBe(1);
    const gauge = await f.metrics.tasksInFlight.get();
    expect(gauge.values[0].value).toBe(3);
  });
});
