import { TaskEntity } from '../../core/tasks/entities/task.entity';
import { endedWithoutResult } from '../../core/tasks/task-status';
import { newId } from '../../platform/ids/ids';
import { VideoDeletedResponse, VideoEvent, VideoResponse, VideoStatus } from './video.responses';
import { VIDEO_FAMILIES } from './video-families';

/** The face's name on the tasks created through it. */
export const OPENAI_FACE = 'openai';

const seconds = (ms: number | null | undefined): number | null =>
  ms === null || ms === undefined ? null : Math.floor(ms / 1000);

/** The Video status from the gateway's record: terminal phases win over a stale native word. */
export function videoStatus(task: TaskEntity): VideoStatus {
  if (task.phase === 'succeeded') return 'completed';
  // The Video object has no cancelled status: a cancelled video reads failed, with the code `cancelled`.
  if (endedWithoutResult(task.phase)) return 'failed';
  if (task.phase === 'submitting') return 'queued';
  const queued = VIDEO_FAMILIES[task.family]?.queuedWords ?? [];
  return queued.includes(task.nativeStatus) && task.progress <= 0 ? 'queued' : 'in_progress';
}

/** The Video object of a task of ax or vd, wherever it was created; `expiresAt`: the kept copy's (ms). */
export function presentVideo(task: TaskEntity, expiresAt: number | null): VideoResponse {
  const status = videoStatus(task);
  const facts = VIDEO_FAMILIES[task.family]?.mapping.facts(task.requestSnapshot ?? {}) ?? {
    prompt: null,
    seconds: null,
    size: null,
  };
  return {
    id: task.id,
    object: 'video',
    model: task.model,
    status,
    progress: status === 'completed' ? 100 : Math.max(0, Math.min(100, Math.trunc(task.progress ?? 0))),
    created_at: seconds(task.createdAt) as number,
    completed_at: status === 'completed' || status === 'failed' ? seconds(task.finishedAt ?? task.updatedAt) : null,
    expires_at: seconds(expiresAt),
    prompt: facts.prompt,
    seconds: facts.seconds,
    size: facts.size,
    remixed_from_video_id: null,
    error:
      status === 'failed'
        ? { code: task.failureCode ?? 'failed', message: task.failureReason ?? 'The video failed.' }
        : null,
  };
}

export function presentDeleted(id: string): VideoDeletedResponse {
  return { id, object: 'video.deleted', deleted: true };
}

/** The client callback of a task created here: `video.completed` or `video.failed`, the Video as its data. */
export function presentVideoEvent(task: TaskEntity, now: number, expiresAt: number | null): VideoEvent {
  const video = presentVideo(task, expiresAt);
  return {
    id: newId('evt'),
    object: 'event',
    type: video.status === 'completed' ? 'video.completed' : 'video.failed',
    created_at: Math.floor(now / 1000),
    data: video,
  };
}
