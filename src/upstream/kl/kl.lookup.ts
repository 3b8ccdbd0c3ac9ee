import { asNonEmptyString, asRecord, isRecord } from '../http/lenient';

/**
 * The task an `?external_task_id=` query answered with: its `data` may be the task itself or a list
 * (the collection endpoint lists tasks). Only a task carrying exactly that external ID is taken, so a
 * list that ignored the filter never makes us adopt someone else's task.
 */
export function pickTaskByExternalId(data: unknown, externalTaskId: string): Record<string, unknown> | undefined {
  const candidates = Array.isArray(data) ? data : [data];
  return candidates
    .filter(isRecord)
    .find((task) => asNonEmptyString(asRecord(task.task_info).external_task_id) === externalTaskId);
}
