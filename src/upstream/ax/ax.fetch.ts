import { asNonEmptyString, asNumber, asRecord, asString, isRecord, withoutUndefined } from '../http/lenient';
import { mapStatus, progressFor, unreadableSnapshot } from '../http/snapshot-helpers';
import type { UpstreamTaskSnapshot, UpstreamVideo } from '../upstream.types';
import { AX_STATUS, normaliseAxStatus } from './ax.status';

/** ax task answer `{request_id, output: {...}, usage}` -> snapshot. */
export function toAxSnapshot(payload: unknown): UpstreamTaskSnapshot {
  if (!isRecord(payload)) return unreadableSnapshot(payload);
  const output = asRecord(payload.output);
  const state = mapStatus(AX_STATUS, asString(output.task_status), normaliseAxStatus);
  const usage = isRecord(payload.usage) ? payload.usage : undefined;
  const videoUrl = asNonEmptyString(output.video_url);
  // usage.duration counts input plus output seconds; only output_video_duration is the video's length.
  const video: UpstreamVideo | undefined = videoUrl
    ? withoutUndefined({ url: videoUrl, durationSeconds: asNumber(usage?.output_video_duration) })
    : undefined;
  const snapshot: UpstreamTaskSnapshot = {
    state,
    nativeStatus: asString(output.task_status) ?? '',
    videos: video ? [video] : [],
    voices: [],
    raw: payload,
  };
  const progress = progressFor(state, output.progress);
  if (progress !== undefined) snapshot.progress = progress;
  if (state === 'failed')
    Object.assign(
      snapshot,
      withoutUndefined({ failureCode: asNonEmptyString(output.code), failureReason: asNonEmptyString(output.message) }),
    );
  if (usage) snapshot.nativeUsage = usage;
  return snapshot;
}
