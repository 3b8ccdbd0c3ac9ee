import { asNonEmptyString, asString, isRecord, withoutUndefined } from '../http/lenient';
import { mapStatus, progressFor, readVideos, unreadableSnapshot } from '../http/snapshot-helpers';
import type { UpstreamTaskSnapshot, UpstreamTaskState } from '../upstream.types';
import { VD_CANCELLED_CODE, VD_STATUS, normaliseVdStatus } from './vd.status';

/**
 * vd task answer -> snapshot. Reads both the creations query `{id, state, err_code, credits,
 * creations: [...]}` and the creation answer `{task_id, state, credits, ...}`.
 */
export function toVdSnapshot(payload: unknown): UpstreamTaskSnapshot {
  if (!isRecord(payload)) return unreadableSnapshot(payload);
  const state = vdStateOf(payload);
  const snapshot: UpstreamTaskSnapshot = {
    state,
    nativeStatus: asString(payload.state) ?? '',
    videos: readVideos(payload.creations, 'watermarked_url'),
    voices: [],
    raw: payload,
  };
  const progress = progressFor(state, payload.progress);
  if (progress !== undefined) snapshot.progress = progress;
  if (state === 'failed') {
    const code = asNonEmptyString(payload.err_code);
    // err_code is the only reason the documented answer carries; a message, when sent, is the better text.
    const reason = asNonEmptyString(payload.err_msg) ?? asNonEmptyString(payload.message) ?? code;
    Object.assign(snapshot, withoutUndefined({ failureCode: code, failureReason: reason }));
  }
  if (payload.credits !== undefined) snapshot.nativeUsage = { credits: payload.credits };
  return snapshot;
}

/** The vendor shows a cancelled task as `failed` with `err_code` `UserCancelled`: that ending is a cancel. */
function vdStateOf(payload: Record<string, unknown>): UpstreamTaskState {
  const state = mapStatus(VD_STATUS, asString(payload.state), normaliseVdStatus);
  return state === 'failed' && asString(payload.err_code) === VD_CANCELLED_CODE ? 'cancelled' : state;
}
