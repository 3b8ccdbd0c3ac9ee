import { asRecord, nonEmptyString, stringField } from '../body-fields';
import { assetUrl } from '../family';
import { SimAnswer } from '../http/sim-answer';
import { numericId } from '../ids';
import { markerRefusal, readMarkers } from '../markers';
import { simModelName } from '../sim-models';
import { KL_SIM_MODELS } from './kl-models';
import { newTimeline, phaseAt } from '../task-clock';
import { KL_ERRORS, klOk } from './kl-envelope';
import { KlSessions } from './kl-sessions';
import { KlEditingTask, KlTaskStore, klTaskHeader, klCreatedData } from './kl-task-store';

const EDIT_MODES = ['addition', 'swap', 'removal'];
const FAILURE_MESSAGE = 'Failure to pass the risk control system';

/** kl editing tasks (`/v1/videos/multi-elements`). */
export class KlEditing {
  constructor(
    private readonly baseUrl: string,
    private readonly taskMs: () => number,
    private readonly sessions: KlSessions,
    private readonly store: KlTaskStore,
    private readonly onCreated: (task: KlEditingTask, callbackUrl: unknown) => void,
  ) {}

  create(rawBody: unknown): SimAnswer {
    const body = asRecord(rawBody);
    const prompt = stringField(body, 'prompt');
    const markers = readMarkers(prompt);
    const refusal = markerRefusal(markers, KL_ERRORS);
    if (refusal) return refusal;

    const modelName = stringField(body, 'model_name');
    if (modelName !== undefined && !simModelName(KL_SIM_MODELS, modelName))
      return KL_ERRORS.badRequest(`model_name ${modelName} is invalid`);
    const sessionId = nonEmptyString(body, 'session_id');
    if (!sessionId) return KL_ERRORS.badRequest('session_id is required');
    if (!this.sessions.find(sessionId)) return KL_ERRORS.badRequest(`session ${sessionId} is invalid or has expired`);
    const editMode = stringField(body, 'edit_mode');
    if (!editMode || !EDIT_MODES.includes(editMode))
      return KL_ERRORS.badRequest(`edit_mode must be one of ${EDIT_MODES.join(', ')}`);
    if (!prompt || prompt.trim() === '') return KL_ERRORS.badRequest('prompt is required');
    const duration = String(body?.duration ?? '5');
    if (duration !== '5' && duration !== '10') return KL_ERRORS.badRequest('duration must be 5 or 10');

    const task: KlEditingTask = {
      kind: 'editing',
      taskId: numericId(19),
      externalTaskId: stringField(body, 'external_task_id'),
      timeline: newTimeline(this.taskMs(), markers),
      sessionId,
      videoId: numericId(19),
      duration,
      mode: stringField(body, 'mode') ?? 'std',
      watermarkEnabled: asRecord(body?.watermark_info)?.enabled === true,
    };
    this.store.add(task);
    this.onCreated(task, body?.callback_url);
    return klOk(klCreatedData(task));
  }

  /** The query answer's `data`. */
  render(task: KlEditingTask, now: number): Record<string, unknown> {
    const phase = phaseAt(task.timeline, now);
    const tag = { task_id: task.taskId };
    const videos =
      phase !== 'succeeded'
        ? []
        : [
            {
              id: task.videoId,
              session_id: task.sessionId,
              url: assetUrl(this.baseUrl, 'sample.mp4', tag),
              watermark_url: assetUrl(this.baseUrl, 'sample.mp4', { ...tag, watermark: '1' }),
              duration: task.duration,
            },
          ];
    return {
      ...klTaskHeader(task, FAILURE_MESSAGE, now),
      task_result: { videos },
      watermark_info: { enabled: task.watermarkEnabled },
      final_unit_deduction: phase === 'failed' ? '0' : unitDeduction(task),
    };
  }
}

/** Native credit figure (informational only): more for `pro` and for 10 s. */
function unitDeduction(task: KlEditingTask): string {
  const perFiveSeconds = task.mode === 'pro' ? 5 : 3;
  return String(perFiveSeconds * (task.duration === '10' ? 2 : 1));
}
