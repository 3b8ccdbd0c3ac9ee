import { asNonEmptyString, asRecord } from '../http/lenient';
import { applyModelMap } from '../http/model-map';
import { SubmitOptions, UpstreamChannel, UpstreamOutcomeUnknownError, UpstreamSubmitResult } from '../upstream.types';
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
  const wire = applyModelMap(body, channel);
  delete wire.callback_url;
  delete wire.external_task_id;
  if (options.callbackUrl) wire.callback_url = options.callbackUrl;
  if (options.clientReference) wire.external_task_id = options.clientReference;
  return wire;
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
  throw new UpstreamOutcomeUnknownError(
    `Upstream channel ${channel.id} accepted the task but its answer carries no task ID.`,
  );
}
