import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { Clock } from '../../platform/time/clock';
import { AuditTrail } from '../audit/audit.service';
import type { ChangeOrigin } from '../audit/audit.types';
import type { TaskEntity } from '../tasks/entities/task.entity';
import { isDeleted } from '../tasks/task-queries.service';
import { taskStateConflict as conflict } from '../tasks/task-state-conflict';
import { pendingFile } from './pending-file';
import { ResultFileEntity } from './result-file.entity';
import { REQUEUABLE, ResultFilesRepository } from './result-files.repository';
import { ResultKeeper } from './result-keeper.service';
import { resultSlots } from './result-slots';

/**
 * An operator's "keep the result again": every file of a succeeded task the gateway holds no copy
 * of (not kept, failed, removed past retention, or never queued) is queued for download anew. Files
 * kept or being kept are left alone. The queueing and its audit entry are one transaction.
 */
@Injectable()
export class ResultRekeeping {
  constructor(
    private readonly files: ResultFilesRepository,
    private readonly keeper: ResultKeeper,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  /** The task's files after the change; 409 when there is nothing to queue, and why. */
  async keepAgain(task: TaskEntity, origin: ChangeOrigin): Promise<ResultFileEntity[]> {
    if (!this.keeper.enabled)
      throw conflict('This gateway keeps no result files (RESULT_STORE=off): there is nothing to keep again.');
    if (isDeleted(task)) throw conflict('Its owner deleted this task: its files are not kept again.');
    if (task.phase !== 'succeeded')
      throw conflict(`Only a succeeded task has result files to keep; this one is ${task.phase}.`);
    const slots = resultSlots(task);
    if (slots.length === 0) throw conflict('This task shows no result file.');
    const existing = new Map((await this.files.forTask(task.id)).map((file) => [file.slot, file]));
    const now = this.clock.nowMs();
    const queued = await this.transactions.run(async (tx) => {
      const done: Array<{ slot: string; was: string }> = [];
      for (const { slot, url } of slots) {
        const file = existing.get(slot);
        if (!file) {
          await this.files.add(tx, [pendingFile(task, slot, url, now)]);
          done.push({ slot, was: 'none' });
        } else if (REQUEUABLE.includes(file.status) && (await this.files.requeue(tx, file.id, now))) {
          done.push({ slot, was: file.status });
        }
      }
      if (done.length > 0)
        await this.audit.record(tx, origin, {
          action: 'task.results_keep',
          target: { type: 'task', id: task.id, accountId: task.accountId },
          before: Object.fromEntries(done.map((d) => [d.slot, d.was])),
          after: Object.fromEntries(done.map((d) => [d.slot, 'pending'])),
        });
      return done;
    });
    if (queued.length === 0) throw conflict('Every file of this task is kept already, or queued to be.');
    return this.files.forTask(task.id);
  }
}
