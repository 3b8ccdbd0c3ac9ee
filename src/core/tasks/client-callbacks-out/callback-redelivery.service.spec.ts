import { succeededTask, taskFactory } from '../../../../test/factories';
import { FakeTransactionRunner, OWNER_ORIGIN, inMemoryAuditTrail } from '../../../../test/fakes';
import type { TaskEntity } from '../entities/task.entity';
import type { CallbackOutbox } from './callback-outbox.service';
import { CallbackRedelivery } from './callback-redelivery.service';

describe('CallbackRedelivery', () => {
  function setup() {
    const queued: string[] = [];
    const outbox = { enqueue: async (task: TaskEntity) => void queued.push(task.id) } as unknown as CallbackOutbox;
    const audit = inMemoryAuditTrail();
    return { service: new CallbackRedelivery(outbox, new FakeTransactionRunner(), audit.trail), queued, audit };
  }

  it('queues one new delivery of an ended task, and audits it', async () => {
    const f = setup();
    const task = succeededTask({ callbackUrl: 'https://client.test/hook' });
    await f.service.redeliver(task, OWNER_ORIGIN);
    expect(f.queued).toEqual([task.id]);
    expect(f.audit.entries()).toEqual([
      {
        action: 'task.callback_redeliver',
        target: { type: 'task', id: task.id, accountId: task.accountId },
        before: null,
        after: { callback_url: 'https://client.test/hook', status: 'succeeded' },
      },
    ]);
  });

  it.each([
    ['no callback URL', succeededTask({ callbackUrl: null }), /no callback URL/],
    [
      'its owner deleted it',
      succeededTask({ callbackUrl: 'https://client.test/hook', deletedAt: 1 }),
      /deleted this task/,
    ],
    [
      'it has not ended',
      taskFactory.build({ phase: 'active', callbackUrl: 'https://client.test/hook' }),
      /has not ended/,
    ],
  ])('refuses with 409 when %s, queueing nothing', async (_k, task, reason) => {
    const f = setup();
    await expect(f.service.redeliver(task, OWNER_ORIGIN)).rejects.toMatchObject({ status: 409, message: reason });
    expect(f.queued).toEqual([]);
    expect(f.audit.entries()).toEqual([]);
  });
});
