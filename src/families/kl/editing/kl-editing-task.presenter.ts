import { resultUrl } from '../../../core/result-keeping/result-url';
import { videoSlot, watermarkSlot } from '../../../core/result-keeping/result-slots';
import type { TaskEntity } from '../../../core/tasks/entities/task.entity';
import { finalUnitDeduction, klEnvelope, klTaskHeader } from '../tasks/kl-task.presenter';
import { publicVideoId } from '../tasks/kl-result-ids';
import { KlEditingTaskResponse } from './kl-editing.responses';

/** `GET /kl/v1/videos/multi-elements/{id}` from the stored record, with the gateway's public IDs only. */
export function presentKlEditingTask(task: TaskEntity, requestId?: string): KlEditingTaskResponse {
  const echo = task.creationEcho ?? {};
  const videos = task.phase === 'succeeded' ? (task.result?.videos ?? []) : [];
  return klEnvelope(
    {
      ...klTaskHeader(task),
      task_result: {
        videos: videos.map((video, i) => ({
          id: publicVideoId(task.id, i),
          session_id: (echo.session_id as string | undefined) ?? '',
          url: resultUrl(task, videoSlot(i), video.url),
          watermark_url: resultUrl(task, watermarkSlot(i), video.watermarkUrl),
          duration: video.durationSeconds !== undefined ? String(video.durationSeconds) : String(echo.duration ?? ''),
        })),
      },
      watermark_info: { enabled: echo.watermark_enabled === true },
      final_unit_deduction: finalUnitDeduction(task),
    },
    requestId,
  );
}
