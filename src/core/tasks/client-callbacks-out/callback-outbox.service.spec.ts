import type { EntityManager } from 'typeorm';
import { succeededTask } from '../../../../test/factories';
import { FakeTaskFamilies, InMemoryCallbackOutboxRepository } from '../../../../test/fakes';
import { ManualClock } from '../../../platform/time/clock';
import { TaskEntity } from '../entities/task.entity';
import { registerTaskFace, TASK_FACE_ECHO } from '../task-faces';
import { CallbackOutbox } from './callback-outbox.service';

const MANAGER = {} as EntityManager;

registerTaskFace({
  name: 'spec-face',
  createdBody: (task: TaskEntity) => ({ created: task.id }),
  // Given a transaction (a redelivery), the face reads what a query would tell now.
  callbackBody: (task: TaskEntity, keptIn?: EntityManager) => ({ face: 'spec', id: task.id, now: keptIn === MANAGER }),
});

function setup() {
  const clock = new ManualClock();
  const repository = new InMemoryCallbackOutboxRepository();
  return { outbox: new CallbackOutbox(repository, new FakeTaskFamilies(), clock), repository, clock };
}

describe('CallbackOutbox', () => {
  it('queues the task’s query body for its callback URL, due now, with its trace context', async () => {
    const f = setup();
    const task = succeededTask({ id: 'task_1', callbackUrl: 'https://client.test/hook', traceContext: '00-abc-01' });
    await f.outbox.enqueue(task);
    const [delivery] = [...f.repository.rows.values()];
    expect(delivery).toMatchObject({
      taskId: 'task_1',
      accountId: task.accountId,
      url: 'https://client.test/hook',
      status: 'pending',
      attempts: 0,
      nextAttemptAt: f.clock.nowMs(),
      lastError: null,
      traceContext: '00-abc-01',
    });
    expect(delivery.id).toMatch(/^msg_/);
    expect(JSON.parse(delivery.body)).toEqual({ id: 'task_1', status: 'SUCCEEDED' });
  });

  it('queues nothing for a task without a callback URL', async () => {
    const f = setup();
    await f.outbox.enqueue(succeededTask({ callbackUrl: null }));
    expect(f.repository.rows.size).toBe(0);
  });

  it('speaks the shape of the API the task was created through', async () => {
    const f = setup();
    await f.outbox.enqueue(
      succeededTask({
        id: 'task_2',
        callbackUrl: 'https://client.test/hook',
        creationEcho: { [TASK_FACE_ECHO]: 'spec-face' },
      }),
    );
    const [delivery] = [...f.repository.rows.values()];
    expect(JSON.parse(delivery.body)).toEqual({ face: 'spec', id: 'task_2', now: false });
  });

  it('hands a redelivery’s transaction to the face, to tell the task as a query would now', async () => {
    const f = setup();
    const task = succeededTask({
      callbackUrl: 'https://client.test/hook',
      creationEcho: { [TASK_FACE_ECHO]: 'spec-face' },
    });
    await f.outbox.enqueue(task, MANAGER);
    await f.outbox.enqueue(task, MANAGER, true);
    const bodies = [...f.repository.rows.values()].map((row) => JSON.parse(row.body) as { now: boolean });
    expect(bodies.map((body) => body.now)).toEqual([false, true]);
  });
});
