import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newId } from '../../../platform/ids/ids';
import { Clock } from '../../../platform/time/clock';
import { TaskEntity } from '../entities/task.entity';
import { TaskFamilies } from '../task-families';
import { taskFaceOf } from '../task-faces';
import { CallbackOutboxRepository } from './callback-outbox.repository';

/** Queues a client callback with the task's query body; the callback worker delivers it. */
@Injectable()
export class CallbackOutbox {
  constructor(
    private readonly outbox: CallbackOutboxRepository,
    private readonly families: TaskFamilies,
    private readonly clock: Clock,
  ) {}

  /** `asQueriedNow`: a redelivery, whose body tells what a query would answer now (kept copies included). */
  async enqueue(task: TaskEntity, manager?: EntityManager, asQueriedNow = false): Promise<void> {
    if (!task.callbackUrl) return;
    // A task created through another face (the OpenAI-shaped API) is told in that face's shape.
    const faceBody = await taskFaceOf(task)?.callbackBody(task, asQueriedNow ? manager : undefined);
    const now = this.clock.nowMs();
    await this.outbox.add(manager, {
      id: newId('msg'),
      taskId: task.id,
      accountId: task.accountId,
      url: task.callbackUrl,
      body: JSON.stringify(faceBody ?? this.families.present(task)),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      lastError: null,
      createdAt: now,
      updatedAt: now,
      traceContext: task.traceContext,
    });
  }
}
