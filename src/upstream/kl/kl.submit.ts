import { toCreateBody } from '../http/create-body';
import { asNonEmptyString, asRecord } from '../http/lenient';
import { SubmitOptions, UpstreamChannel, UpstreamSubmitResult } from '../upstream.types';
import { acceptedWithoutTaskId } from '../http/vendor-task-client';
import { toKlSnapshot } from './kl.fetch';

/**
 * Caller's wire body -> what goes upstream. `callback_url` and `external_task_id` always come from
 * the gateway: callbacks to clients are delivered by the gateway itself (with public IDs), and the
 * upstream account is shared by all gateway accounts, so a client's own external ID could collide.
 */
export function toKlCreateBody(
  body: Record<string, unknown>,
  channel: UpstreamChannel,
  options: SubmitOptions,
): Record<string, unknown> {
  return toCreateBody(body, channel, { callback_url: options.callbackUrl, external_task_id: options.clientReference });
}

/**
 * Creation answer `data` -> result. Without a task ID the task can still be found by the
 * `external_task_id` we sent, so that reference stands in; with neither, nobody can find it again.
 */
export function readKlCreated(
  data: unknown,
  raw: unknown,
  channel: UpstreamChannel,
  clientReference?: string,
): UpstreamSubmitResult {
  const snapshot = toKlSnapshot(data, raw);
  const taskId = asNonEmptyString(asRecord(data).task_id);
  if (taskId) return { upstreamTaskId: taskId, snapshot };
  if (clientReference) return { upstreamTaskId: clientReference, snapshot };
  throw acceptedWithoutTaskId(channel);
}
