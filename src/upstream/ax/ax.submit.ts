import { rejection } from '../http/answer-errors';
import { asNonEmptyString, asRecord } from '../http/lenient';
import { applyModelMap } from '../http/model-map';
import { UpstreamChannel, UpstreamSubmitResult } from '../upstream.types';
import { acceptedWithoutTaskId } from '../http/vendor-task-client';
import { AX_REFUSALS, readAxError } from './ax.error';
import { toAxSnapshot } from './ax.fetch';

/** Caller's wire body -> what goes upstream: only the model name may differ per channel. */
export function toAxCreateBody(body: Record<string, unknown>, channel: UpstreamChannel): Record<string, unknown> {
  return applyModelMap(body, channel);
}

/** Creation answer -> result. A 2xx carrying an error code instead of a task is a refusal. */
export function readAxCreated(payload: unknown, channel: UpstreamChannel): UpstreamSubmitResult {
  const taskId = asNonEmptyString(asRecord(asRecord(payload).output).task_id);
  if (taskId) return { upstreamTaskId: taskId, snapshot: toAxSnapshot(payload) };
  const native = readAxError(payload);
  if (native?.code !== undefined) throw rejection(400, native, channel, AX_REFUSALS);
  throw acceptedWithoutTaskId(channel);
}
