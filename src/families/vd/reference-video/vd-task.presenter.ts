import { resultUrl } from '../../../core/result-keeping/result-url';
import { coverSlot, videoSlot, watermarkSlot } from '../../../core/result-keeping/result-slots';
import { TaskEntity } from '../../../core/tasks/entities/task.entity';
import { endedWithoutResult } from '../../../core/tasks/task-status';
import { VD_CANCELLED_CODE } from '../../../upstream/vd/vd.status';
import { isoTimestamp } from '../../../platform/time/formats';
import { VdTaskCreationResponseDto } from './vd-create.dto';
import { VdCreationsResponse } from './vd-task.responses';

const VD_OPEN_STATES = new Set(['created', 'queueing', 'processing']);

/** vd `state` from the gateway's record: terminal phases always win over a stale native word. */
export function vdState(task: TaskEntity): string {
  if (task.phase === 'succeeded') return 'success';
  if (endedWithoutResult(task.phase)) return 'failed';
  if (task.phase === 'submitting') return 'created';
  return VD_OPEN_STATES.has(task.nativeStatus) ? task.nativeStatus : 'processing';
}

/** The vendor's own code for a cancelled task; the failure's code for other endings without a result. */
function errCode(task: TaskEntity): string {
  if (task.phase === 'cancelled') return VD_CANCELLED_CODE;
  return endedWithoutResult(task.phase) ? (task.failureCode ?? '') : '';
}

function credits(task: TaskEntity): number {
  const value = Number(task.nativeUsage?.credits);
  return Number.isFinite(value) ? Math.trunc(value) : 0;
}

/** The creation answer: every field of the vd task, with the values that will be used. */
export function presentVdCreated(task: TaskEntity): VdTaskCreationResponseDto {
  const echo = task.creationEcho ?? {};
  return {
    task_id: task.id,
    state: 'created',
    ...(echo as Omit<VdTaskCreationResponseDto, 'task_id' | 'state' | 'credits' | 'created_at'>),
    credits: credits(task),
    created_at: isoTimestamp(task.createdAt),
  };
}

/** `GET /vd/ent/v2/tasks/{id}/creations` from the stored record; creation IDs are the gateway's. */
export function presentVdCreations(task: TaskEntity): VdCreationsResponse {
  const succeeded = task.phase === 'succeeded';
  return {
    id: task.id,
    state: vdState(task),
    err_code: errCode(task),
    credits: credits(task),
    payload: (task.creationEcho?.payload as string | undefined) ?? '',
    creations: succeeded
      ? (task.result?.videos ?? []).map((video, i) => ({
          id: `${task.id.replace(/^task_/, 'creation_')}_${i}`,
          url: resultUrl(task, videoSlot(i), video.url),
          cover_url: resultUrl(task, coverSlot(i), video.coverUrl),
          watermarked_url: resultUrl(task, watermarkSlot(i), video.watermarkUrl),
        }))
      : [],
  };
}
