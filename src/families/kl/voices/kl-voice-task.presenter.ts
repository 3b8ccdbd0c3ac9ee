import { resultUrl } from '../../../core/result-keeping/result-url';
import { trialAudioSlot } from '../../../core/result-keeping/result-slots';
import type { TaskEntity } from '../../../core/tasks/entities/task.entity';
import { finalUnitDeduction, klEnvelope, klTaskHeader } from '../tasks/kl-task.presenter';
import { publicVoiceId } from '../tasks/kl-result-ids';
import { KlVoiceTaskResponse } from './kl-voice.responses';

/**
 * `GET /kl/v1/general/custom-voices/{id}` from the stored record, with the gateway's public IDs only.
 * `deleted`: public IDs of this task's voices the owner has deleted; they stay listed with `deleted: true`.
 */
export function presentKlVoiceTask(
  task: TaskEntity,
  requestId?: string,
  deleted: ReadonlySet<string> = new Set(),
): KlVoiceTaskResponse {
  const voices = task.phase === 'succeeded' ? (task.result?.voices ?? []) : [];
  return klEnvelope(
    {
      ...klTaskHeader(task),
      task_result: {
        voices: voices.map((voice, i) => ({
          voice_id: publicVoiceId(task.id, i),
          deleted: deleted.has(publicVoiceId(task.id, i)),
          voice_name: voice.voiceName ?? '',
          trial_url: resultUrl(task, trialAudioSlot(i), voice.trialUrl),
          // Never the upstream account's creator number (the same for every customer).
          owned_by: ownerNumber(task.accountId),
        })),
      },
      final_unit_deduction: finalUnitDeduction(task),
    },
    requestId,
  );
}

/** A stable number for the owning account, shown where the upstream shows its creator number. */
export function ownerNumber(accountId: string): string {
  let hash = 0;
  for (const ch of accountId) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return String(hash);
}
