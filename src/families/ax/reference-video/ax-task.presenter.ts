import { randomUUID } from 'crypto';
import { resultUrl } from '../../../core/result-keeping/result-url';
import { videoSlot } from '../../../core/result-keeping/result-slots';
import { TaskEntity } from '../../../core/tasks/entities/task.entity';
import type { CreatedAnswer } from '../../../core/tasks/task-families';
import { endedWithoutResult } from '../../../core/tasks/task-status';
import { axTimestamp } from '../../../platform/time/formats';
import { AxCreatedResponse, AxTaskResponse } from './ax-task.responses';

/** `creationEcho` flag: the request used the deprecated `input.reference_video_urls`. */
export const AX_DEPRECATED_FIELD_ECHO = 'used_reference_video_urls';

const AX_STATUSES = new Set(['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'UNKNOWN']);

/** ax `task_status` from the gateway's record: terminal phases always win over a stale native word. */
export function axTaskStatus(task: TaskEntity): string {
  if (task.phase === 'succeeded') return 'SUCCEEDED';
  if (task.phase === 'cancelled') return 'CANCELED';
  if (task.phase === 'failed' || task.phase === 'rejected')
    return task.nativeStatus === 'CANCELED' ? 'CANCELED' : 'FAILED';
  if (task.phase === 'submitting') return 'PENDING';
  return AX_STATUSES.has(task.nativeStatus) ? task.nativeStatus : 'UNKNOWN';
}

/** Creation answer: PENDING with the gateway's public task ID. */
export function presentAxCreated(task: TaskEntity, requestId: string): AxCreatedResponse {
  return { request_id: requestId, output: { task_id: task.id, task_status: 'PENDING' } };
}

/** The creation answer rebuilt from the record, with the `Deprecation` header the first answer carried. */
export function presentAxCreatedAnswer(task: TaskEntity, requestId: string): CreatedAnswer {
  const deprecated = task.creationEcho?.[AX_DEPRECATED_FIELD_ECHO] === true;
  return { body: presentAxCreated(task, requestId), headers: deprecated ? { deprecation: 'true' } : {} };
}

/** Query answer in the upstream's shape, from the stored record only. */
export function presentAxTask(task: TaskEntity, requestId: string = randomUUID()): AxTaskResponse {
  const native = (task.lastNative as { output?: { scheduled_time?: unknown } } | null)?.output;
  const failed = endedWithoutResult(task.phase);
  // Fields without a value are left out (not written as undefined): the native answer omits them.
  const output: Record<string, unknown> = {
    task_id: task.id,
    task_status: axTaskStatus(task),
    submit_time: axTimestamp(task.createdAt),
  };
  if (typeof native?.scheduled_time === 'string') output.scheduled_time = native.scheduled_time;
  if (task.finishedAt !== null && task.finishedAt !== undefined) output.end_time = axTimestamp(task.finishedAt);
  const videoUrl = task.phase === 'succeeded' ? task.result?.videos[0]?.url : undefined;
  if (videoUrl !== undefined) output.video_url = resultUrl(task, videoSlot(0), videoUrl);
  if (failed && task.failureCode !== null && task.failureCode !== undefined) output.code = task.failureCode;
  if (failed && task.failureReason !== null && task.failureReason !== undefined) output.message = task.failureReason;
  const body: AxTaskResponse = { request_id: requestId, output: output as unknown as AxTaskResponse['output'] };
  if (task.nativeUsage) body.usage = task.nativeUsage;
  return body;
}
