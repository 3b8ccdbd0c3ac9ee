import { newFakes } from '../../../test/fakes';
import { UpstreamTaskLostError, UpstreamTaskNotFoundError } from '../../upstream/upstream.types';

/** The sync service over the shared fakes: the upstream answers whatever `answer` throws. */
function setup(answer: () => Error) {
  const f = newFakes();
  f.client.onFetch = () => Promise.reject(answer());
  const task = f.seedTask({ nativeStatus: 'RUNNING', syncAttempts: 7 });
  return { f, task };
}

const lostError = () => new UpstreamTaskLostError('UNKNOWN answered', 'The task ID is invalid or expired.', 'UNKNOWN');

describe('TaskSyncService: an upstream that says it lost the task', () => {
  it('re-polls once, remembering the answer, then ends the task with its own code and reason', async () => {
    const { f, task } = setup(lostError);
    await f.sync.sync(task);
    // Not ended yet, even past the not-found budget: one answer is not a confirmation.
    expect(f.tasks.row(task.id)).toMatchObject({ phase: 'active', nativeStatus: 'UNKNOWN', syncAttempts: 8 });
    await f.sync.sync(task);
    expect(f.tasks.row(task.id)).toMatchObject({
      phase: 'failed',
      failureCode: 'upstream_task_expired',
      failureReason: 'The task ID is invalid or expired.',
      billingState: 'released',
    });
  });

  it('needs the two answers in a row: a real status in between starts over', async () => {
    const { f, task } = setup(lostError);
    await f.sync.sync(task);
    task.nativeStatus = 'RUNNING'; // what a successful poll in between records
    await f.sync.sync(task);
    expect(f.tasks.row(task.id).phase).toBe('active');
  });

  it('leaves a bare not-found on its own budget', async () => {
    const { f, task } = setup(() => new UpstreamTaskNotFoundError('404'));
    await f.sync.sync(task);
    expect(f.tasks.row(task.id)).toMatchObject({ phase: 'failed', failureCode: 'upstream_task_lost' });
  });
});
