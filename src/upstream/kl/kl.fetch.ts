import { asArray, asNonEmptyString, asRecord, asString, isRecord, withoutUndefined } from '../http/lenient';
import { mapStatus, progressFor, readVideos, unreadableSnapshot } from '../http/snapshot-helpers';
import type { UpstreamTaskSnapshot, UpstreamVoice } from '../upstream.types';
import { KL_STATUS, normaliseKlStatus } from './kl.status';
import { klVoiceOwner } from './kl.voices';

/**
 * kl task `data` (editing task or custom voice; one shape serves both) -> snapshot.
 * `raw` is the whole envelope as received.
 */
export function toKlSnapshot(data: unknown, raw: unknown): UpstreamTaskSnapshot {
  if (!isRecord(data)) return unreadableSnapshot(raw);
  const nativeStatus = asString(data.task_status) ?? '';
  const state = mapStatus(KL_STATUS, asString(data.task_status), normaliseKlStatus);
  const result = asRecord(data.task_result);
  const snapshot: UpstreamTaskSnapshot = {
    state,
    nativeStatus,
    videos: readVideos(result.videos, 'watermark_url'),
    voices: asArray(result.voices)
      .map(toVoice)
      .filter((voice): voice is UpstreamVoice => voice !== undefined),
    raw,
  };
  // Needed when the task was looked up by the gateway's reference after an unknown creation outcome.
  const upstreamTaskId = asNonEmptyString(data.task_id);
  if (upstreamTaskId) snapshot.upstreamTaskId = upstreamTaskId;
  const progress = progressFor(state, data.progress);
  if (progress !== undefined) snapshot.progress = progress;
  // The real reason (e.g. content moderation) is kept for the caller; kl sends no separate failure code.
  const reason = asNonEmptyString(data.task_status_msg);
  if (state === 'failed' && reason) snapshot.failureReason = reason;
  if (data.final_unit_deduction !== undefined)
    snapshot.nativeUsage = { final_unit_deduction: data.final_unit_deduction };
  return snapshot;
}

function toVoice(item: unknown): UpstreamVoice | undefined {
  const voice = asRecord(item);
  const voiceId = asNonEmptyString(voice.voice_id);
  if (!voiceId) return undefined;
  return withoutUndefined({
    voiceId,
    voiceName: asString(voice.voice_name),
    trialUrl: asNonEmptyString(voice.trial_url),
    // Official voices come back as `kling` and are shown as `kl`; a creator ID (sometimes numeric) otherwise.
    ownedBy: klVoiceOwner(asString(voice.owned_by)),
  });
}
