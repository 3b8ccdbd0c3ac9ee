import { randomUUID } from 'crypto';
import type { TaskEntity } from '../../../core/tasks/entities/task.entity';
import { endedWithoutResult } from '../../../core/tasks/task-status';
import { KlEnvelope, KlTaskCreatedData } from './kl-task.responses';

/** The fields every kl task answer shares. */
export type KlTaskHeader = KlTaskCreatedData & { task_status_msg: string };

/** kl `task_status` from the gateway's record: terminal phases always win over a stale native word. */
export function klTaskStatus(task: TaskEntity): string {
  if (task.phase === 'succeeded') return 'succeed';
  // kl has no word for a cancelled task: it reads failed, its message says it was cancelled.
  if (endedWithoutResult(task.phase)) return 'failed';
  if (task.phase === 'submitting') return 'submitted';
  return task.nativeStatus === 'processing' ? 'processing' : 'submitted';
}

/** The common envelope of every kl answer: `code` 0 on success. */
export function klEnvelope<T>(data: T, requestId: string = randomUUID()): KlEnvelope & { data: T } {
  return { code: 0, message: 'SUCCEED', request_id: requestId, data };
}

/** The fields every kl task answer shares; times in milliseconds. */
export function klTaskHeader(task: TaskEntity): KlTaskHeader {
  const failed = endedWithoutResult(task.phase);
  return {
    task_id: task.id,
    task_status: klTaskStatus(task),
    // The upstream's real reason (e.g. content moderation), or the gateway's own (deadline).
    task_status_msg: failed ? (task.failureReason ?? '') : '',
    task_info: task.externalTaskId ? { external_task_id: task.externalTaskId } : {},
    created_at: task.createdAt,
    updated_at: task.updatedAt,
  };
}

/** Native credit figure, passed through as information only (the charge follows the usage log). */
export function finalUnitDeduction(task: TaskEntity): string {
  const value = task.nativeUsage?.final_unit_deduction;
  return value === undefined || value === null ? '0' : String(value);
}

/** The creation answer's `data` (editing tasks and custom voices). */
export function klCreatedData(task: TaskEntity): KlTaskCreatedData {
  return {
    task_id: task.id,
    task_status: klTaskStatus(task),
    task_info: task.externalTaskId ? { external_task_id: task.externalTaskId } : {},
    created_at: task.createdAt,
    updated_at: task.updatedAt,
  };
}
