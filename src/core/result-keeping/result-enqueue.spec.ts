import { EntityManager } from 'typeorm';
import { newFakes, snapshot } from '../../../test/fakes';
import { TaskEntity } from '../tasks/entities/task.entity';
import { TaskLifecycle } from '../tasks/task-lifecycle.service';
import { ResultKeeper } from './result-keeper.service';

/** The keep queue is filled by the task's terminal switch, in its transaction, by the winner only. */
describe('TaskLifecycle queues result downloads with a success', () => {
  function withKeeper() {
    const f = newFakes();
    const calls: Array<{ task: TaskEntity; tx: EntityManager; runsBefore: number }> = [];
    const keeper = {
      enqueue: async (task: TaskEntity, tx: EntityManager) => {
        calls.push({ task, tx, runsBefore: f.transactions.runs });
      },
    } as unknown as ResultKeeper;
    const lifecycle = new TaskLifecycle(
      f.tasks,
      f.accounts,
      f.ledger,
      f.pricing,
      f.callbacks,
      f.metrics,
      f.transactions,
      f.families,
      f.clock,
      f.config,
      keeper,
    );
    return { f, lifecycle, calls };
  }

  it('once, inside the terminal transaction, with the final record', async () => {
    const { f, lifecycle, calls } = withKeeper();
    const task = f.seedTask();
    const runs = f.transactions.runs;
    const videos = [{ url: 'https://cdn/v.mp4', watermarkUrl: 'https://cdn/w.mp4' }];
    await lifecycle.applySnapshot(task, snapshot({ state: 'succeeded', videos }));
    await lifecycle.applySnapshot(task, snapshot({ state: 'succeeded', videos }));
    expect(calls).toHaveLength(1);
    expect(calls[0].runsBefore).toBe(runs + 1);
    expect(calls[0].tx).toBeDefined();
    expect(calls[0].task).toMatchObject({ id: task.id, phase: 'succeeded', result: { videos } });
  });

  it('never for failures, rejections or the gateway’s own endings', async () => {
    const { f, lifecycle, calls } = withKeeper();
    await lifecycle.applySnapshot(f.seedTask(), snapshot({ state: 'failed' }));
    await lifecycle.failByGateway(f.seedTask(), 'deadline_exceeded', 'late');
    await lifecycle.reject(f.seedTask({ phase: 'submitting' }), '1201', 'refused');
    expect(calls).toHaveLength(0);
  });
});
