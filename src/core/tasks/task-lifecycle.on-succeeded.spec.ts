import { EntityManager } from 'typeorm';
import { newFakes, snapshot } from '../../../test/fakes';
import { TaskEntity } from './entities/task.entity';

/** The family hook `TaskFamilies.onSucceeded`: run by the one finisher, inside its terminal transaction. */
function withHook(f: ReturnType<typeof newFakes>) {
  const calls: Array<{ task: TaskEntity; runsBefore: number; tx: EntityManager }> = [];
  f.families.onSucceeded = async (task, tx) => {
    calls.push({ task, runsBefore: f.transactions.runs, tx });
  };
  return calls;
}

describe('TaskLifecycle: the family’s onSucceeded hook', () => {
  it('runs once for a succeeded task, inside the terminal transaction, with the final record', async () => {
    const f = newFakes();
    const calls = withHook(f);
    const task = f.seedTask();
    const runs = f.transactions.runs;
    await f.lifecycle.applySnapshot(
      task,
      snapshot({ state: 'succeeded', voices: [{ voiceId: 'up-voice-1', voiceName: 'n' }] }),
    );
    expect(calls).toHaveLength(1);
    expect(calls[0].runsBefore).toBe(runs + 1); // called while the terminal transaction runs
    expect(calls[0].tx).toBeDefined();
    expect(calls[0].task).toMatchObject({
      id: task.id,
      phase: 'succeeded',
      result: { voices: [{ voiceId: 'up-voice-1' }] },
    });
  });

  it('does not run again for a second finisher, nor for failures, rejections or gateway endings', async () => {
    const f = newFakes();
    const calls = withHook(f);
    const task = f.seedTask();
    await f.lifecycle.applySnapshot(task, snapshot({ state: 'succeeded' }));
    await f.lifecycle.applySnapshot(task, snapshot({ state: 'succeeded' }));
    expect(calls).toHaveLength(1);

    await f.lifecycle.applySnapshot(f.seedTask(), snapshot({ state: 'failed' }));
    await f.lifecycle.failByGateway(f.seedTask(), 'deadline_exceeded', 'late');
    await f.lifecycle.reject(f.seedTask({ phase: 'submitting' }), '1201', 'refused');
    expect(calls).toHaveLength(1);
  });
});
