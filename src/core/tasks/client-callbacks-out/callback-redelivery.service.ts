import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '../../../platform/database/transaction-runner';
import { AuditTrail } from '../../audit/audit.service';
import type { ChangeOrigin } from '../../audit/audit.types';
import { TaskEntity } from '../entities/task.entity';
import { isDeleted } from '../task-queries.service';
import { isTerminal } from '../task-status';
import { taskStateConflict } from '../task-state-conflict';
import { CallbackOutbox } from './callback-outbox.service';

/**
 * An operator's "send the client callback again": one new delivery of the task's final state (as a
 * client would query it now) to its callback URL, with the full attempts of a first delivery. The
 * deliveries before it are left as they are. The delivery and its audit entry are one transaction.
 */
@Injectable()
export class CallbackRedelivery {
  constructor(
    private readonly outbox: CallbackOutbox,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {}

  /** 409 when the task has no callback URL, has not ended, or was deleted by its owner. */
  async redeliver(task: TaskEntity, origin: ChangeOrigin): Promise<void> {
    if (!task.callbackUrl) throw taskStateConflict('This task has no callback URL: there is nothing to deliver.');
    if (isDeleted(task)) throw taskStateConflict('Its owner deleted this task: its callback is not sent again.');
    if (!isTerminal(task.phase))
      throw taskStateConflict(`This task has not ended (it is ${task.phase}): its callback is sent when it does.`);
    await this.transactions.run(async (tx) => {
      await this.outbox.enqueue(task, tx, true);
      await this.audit.record(tx, origin, {
        action: 'task.callback_redeliver',
        target: { type: 'task', id: task.id, accountId: task.accountId },
        before: null,
        after: { callback_url: task.callbackUrl, status: task.phase },
      });
    });
  }
}
