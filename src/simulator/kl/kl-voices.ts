import { asRecord, nonEmptyString, stringField } from '../body-fields';
import { assetUrl } from '../family';
import { SimAnswer } from '../http/sim-answer';
import { numericId } from '../ids';
import { markerRefusal, readMarkers } from '../markers';
import { newTimeline, phaseAt } from '../task-clock';
import { KL_ERRORS, klOk } from './kl-envelope';
import { KlTaskStore, KlVoiceTask, klTaskHeader, klCreatedData } from './kl-task-store';

const MAX_VOICE_NAME = 20;
const FAILURE_MESSAGE = 'The audio does not contain one clear human voice';
/** The simulated account's creator ID, shown as `owned_by` of its custom voices. */
const CREATOR_ID = '20240601';

const PRESET_VOICES = [
  { taskId: '7000000000000000001', voiceId: '829826007624355840', name: 'Warm Narrator' },
  { taskId: '7000000000000000002', voiceId: '829826007624355841', name: 'Bright Host' },
  { taskId: '7000000000000000003', voiceId: '829826007624355842', name: 'Calm Guide' },
  { taskId: '7000000000000000004', voiceId: '829826007624355843', name: 'Young Storyteller' },
] as const;
const PRESETS_CREATED_AT = Date.UTC(2025, 0, 1);

/** kl custom voices, preset voices and voice deletion (`/v1/general/...`). */
export class KlVoices {
  private readonly deletedVoiceIds = new Set<string>();

  constructor(
    private readonly baseUrl: string,
    private readonly taskMs: () => number,
    private readonly store: KlTaskStore,
    private readonly onCreated: (task: KlVoiceTask, callbackUrl: unknown) => void,
  ) {}

  create(rawBody: unknown): SimAnswer {
    const body = asRecord(rawBody);
    const voiceName = stringField(body, 'voice_name');
    const markers = readMarkers(voiceName);
    const refusal = markerRefusal(markers, KL_ERRORS);
    if (refusal) return refusal;
    if (!voiceName || voiceName.trim() === '' || voiceName.length > MAX_VOICE_NAME) {
      return KL_ERRORS.badRequest(`voice_name is required, at most ${MAX_VOICE_NAME} characters`);
    }
    if (!nonEmptyString(body, 'voice_url') && !nonEmptyString(body, 'video_id')) {
      return KL_ERRORS.badRequest('one of voice_url and video_id is required');
    }
    const task: KlVoiceTask = {
      kind: 'voice',
      taskId: numericId(19),
      externalTaskId: stringField(body, 'external_task_id'),
      timeline: newTimeline(this.taskMs(), markers),
      voiceId: numericId(18),
      voiceName,
    };
    this.store.add(task);
    this.onCreated(task, body?.callback_url);
    return klOk(klCreatedData(task));
  }

  /** The query answer's `data`. */
  render(task: KlVoiceTask, now: number): Record<string, unknown> {
    const phase = phaseAt(task.timeline, now);
    const voices =
      phase !== 'succeeded'
        ? []
        : [
            {
              voice_id: task.voiceId,
              voice_name: task.voiceName,
              trial_url: assetUrl(this.baseUrl, 'sample.mp4', { voice_id: task.voiceId }),
              owned_by: CREATOR_ID,
            },
          ];
    return {
      ...klTaskHeader(task, FAILURE_MESSAGE, now),
      task_result: { voices },
      final_unit_deduction: phase === 'failed' ? '0' : '1',
    };
  }

  presets(query: URLSearchParams): SimAnswer {
    const pageNum = pageParam(query, 'pageNum', 1);
    const pageSize = pageParam(query, 'pageSize', 20);
    if (pageNum === undefined || pageSize === undefined)
      return KL_ERRORS.badRequest('pageNum and pageSize must be integers from 1 to 500');
    const page = PRESET_VOICES.slice((pageNum - 1) * pageSize, pageNum * pageSize);
    return klOk(
      page.map((preset) => ({
        task_id: preset.taskId,
        task_status: 'succeed',
        task_status_msg: '',
        task_result: {
          voices: [
            {
              voice_id: preset.voiceId,
              voice_name: preset.name,
              trial_url: assetUrl(this.baseUrl, 'sample.mp4', { voice_id: preset.voiceId }),
              // The real service labels its official library `kling`; the gateway shows it as `kl`.
              owned_by: 'kling',
            },
          ],
        },
        created_at: PRESETS_CREATED_AT,
        updated_at: PRESETS_CREATED_AT,
      })),
    );
  }

  delete(rawBody: unknown): SimAnswer {
    const voiceId = nonEmptyString(asRecord(rawBody), 'voice_id');
    if (!voiceId) return KL_ERRORS.badRequest('voice_id is required');
    if (PRESET_VOICES.some((preset) => preset.voiceId === voiceId)) {
      return KL_ERRORS.badRequest('only custom voices can be deleted');
    }
    const task = this.store.voiceTaskByVoiceId(voiceId);
    if (!task || phaseAt(task.timeline) !== 'succeeded' || this.deletedVoiceIds.has(voiceId)) {
      return KL_ERRORS.notFound(`voice ${voiceId} not found`);
    }
    this.deletedVoiceIds.add(voiceId);
    return klOk({ task_id: numericId(19), task_status: 'succeed' });
  }
}

function pageParam(query: URLSearchParams, name: string, fallback: number): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value >= 1 && value <= 500 ? value : undefined;
}
