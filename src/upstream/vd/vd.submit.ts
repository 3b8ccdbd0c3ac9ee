import { rejection } from '../http/answer-errors';
import { toCreateBody } from '../http/create-body';
import { asNonEmptyString, asRecord } from '../http/lenient';
import { SubmitOptions, UpstreamChannel, UpstreamSubmitResult } from '../upstream.types';
import { acceptedWithoutTaskId } from '../http/vendor-task-client';
import { VD_REFUSALS, readVdError } from './vd.error';
import { toVdSnapshot } from './vd.fetch';

/**
 * Caller's wire body -> what goes upstream. `callback_url` is always the gateway's own (or none):
 * the gateway delivers client callbacks itself, with public IDs.
 */
export function toVdCreateBody(
  body: Record<string, unknown>,
  channel: UpstreamChannel,
  options: SubmitOptions,
): Record<string, unknown> {
  return toCreateBody(body, channel, { callback_url: options.callbackUrl });
}

/** Creation answer -> result. A 2xx carrying an error `reason` instead of a task is a refusal. */
export function readVdCreated(payload: unknown, channel: UpstreamChannel): UpstreamSubmitResult {
  const answer = asRecord(payload);
  const taskId = asNonEmptyString(answer.task_id) ?? asNonEmptyString(answer.id);
  if (taskId) return { upstreamTaskId: taskId, snapshot: toVdSnapshot(payload) };
  if (asNonEmptyString(answer.reason)) throw rejection(400, readVdError(payload), channel, VD_REFUSALS);
  throw acceptedWithoutTaskId(channel);
}
