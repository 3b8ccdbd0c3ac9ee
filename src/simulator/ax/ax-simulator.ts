import { arrayField, asRecord, nonEmptyString, stringField } from '../body-fields';
import { FamilyContext, FamilySimulator, assetUrl } from '../family';
import { ForcedPatches } from '../forced-patch';
import { headerValue, json, SimAnswer, SimHandler, SimRequest } from '../http/sim-answer';
import { Route, routeTable } from '../http/router';
import { uuid } from '../ids';
import { markerRefusal, readMarkers } from '../markers';
import { sameSecret } from '../secret-compare';
import { simModelName } from '../sim-models';
import { AX_SIM_MODELS } from './ax-models';
import { ForcedPatch } from '../sim-types';
import {
  TaskPhase,
  TaskTimeline,
  cancelNow,
  endNow,
  isTerminal,
  newTimeline,
  phaseAt,
  runningAt,
  terminalAt,
} from '../task-clock';
import { AX_ERRORS, axError } from './ax-errors';
import { formatAxTime } from './ax-time';
import { AxUsagePlan, planUsage } from './ax-usage';

const AX_STATUS: Record<TaskPhase, string> = {
  queued: 'PENDING',
  running: 'RUNNING',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
  cancelled: 'CANCELED',
};

interface AxTask {
  readonly taskId: string;
  readonly timeline: TaskTimeline;
  readonly usage: AxUsagePlan;
}

/** ax: asynchronous video synthesis under `/api/v1`. */
export function createAxSimulator(context: FamilyContext): FamilySimulator {
  const tasks = new Map<string, AxTask>();
  const forced = new ForcedPatches();

  const create = (request: SimRequest): SimAnswer => {
    // The real service refuses synchronous calls to asynchronous-only models.
    if (headerValue(request, 'x-dashscope-async') !== 'enable') {
      return AX_ERRORS.badRequest(
        'This model only supports asynchronous calls: set the header X-DashScope-Async: enable',
      );
    }
    const body = asRecord(request.body);
    const input = asRecord(body?.input);
    const markers = readMarkers(stringField(input, 'prompt'));
    const refusal = markerRefusal(markers, AX_ERRORS);
    if (refusal) return refusal;
    const model = nonEmptyString(body, 'model');
    if (!model) return AX_ERRORS.badRequest('Field required: model');
    if (!simModelName(AX_SIM_MODELS, model)) return AX_ERRORS.badRequest('Model not exist.');
    if (!input || !nonEmptyString(input, 'prompt')) return AX_ERRORS.badRequest('Field required: input.prompt');
    const hasReferences = ['media', 'reference_urls', 'reference_video_urls'].some(
      (key) => (arrayField(input, key)?.length ?? 0) > 0,
    );
    if (!hasReferences) return AX_ERRORS.badRequest('please provide reference_video_urls or reference_urls');

    const task: AxTask = { taskId: uuid(), timeline: newTimeline(context.taskMs(), markers), usage: planUsage(body) };
    tasks.set(task.taskId, task);
    return json(200, { request_id: uuid(), output: { task_id: task.taskId, task_status: 'PENDING' } });
  };

  const render = (task: AxTask, now: number): Record<string, unknown> => {
    const phase = phaseAt(task.timeline, now);
    const output: Record<string, unknown> = {
      task_id: task.taskId,
      task_status: AX_STATUS[phase],
      submit_time: formatAxTime(task.timeline.createdAt),
    };
    if (phase !== 'queued') output.scheduled_time = formatAxTime(runningAt(task.timeline));
    if (isTerminal(phase)) output.end_time = formatAxTime(terminalAt(task.timeline));
    if (phase === 'succeeded') output.video_url = assetUrl(context.baseUrl, 'sample.mp4', { task_id: task.taskId });
    if (phase === 'failed') {
      output.code = 'DataInspectionFailed';
      output.message = 'Output data may contain inappropriate content.';
    }
    const answer: Record<string, unknown> = { request_id: uuid(), output };
    if (phase === 'succeeded') {
      const { inputSeconds, outputSeconds, sr } = task.usage;
      answer.usage = {
        duration: inputSeconds + outputSeconds,
        input_video_duration: inputSeconds,
        output_video_duration: outputSeconds,
        video_count: 1,
        SR: sr,
      };
    }
    return answer;
  };

  /** The answer the task's query gives now, forced state included. */
  const shown = (task: AxTask, now: number): unknown => forced.apply(task.taskId, render(task, now));

  /** The vendor cancels a task only while the query shows it `PENDING` (queued, not yet running). */
  const cancel = (id: string): SimAnswer => {
    const task = tasks.get(id);
    if (!task) return AX_ERRORS.notFound(`task ${id} not found`);
    const now = Date.now();
    const status = asRecord(asRecord(shown(task, now))?.output)?.task_status;
    if (status !== 'PENDING')
      return axError(
        400,
        'UnsupportedOperation',
        `Failed to cancel the task, please confirm if the task is in PENDING status (it is ${String(status)}).`,
      );
    cancelNow(task.timeline, now);
    return json(200, { request_id: uuid() });
  };

  const routes: Route[] = [
    { method: 'POST', pattern: /^\/api\/v1\/services\/aigc\/video-generation\/video-synthesis$/, handle: create },
    {
      method: 'GET',
      pattern: /^\/api\/v1\/tasks\/([^/]+)$/,
      handle: (_request, [id]) => {
        const task = tasks.get(id);
        return task ? json(200, shown(task, Date.now())) : AX_ERRORS.notFound(`task ${id} not found`);
      },
    },
    { method: 'POST', pattern: /^\/api\/v1\/tasks\/([^/]+)\/cancel$/, handle: (_request, [id]) => cancel(id) },
  ];
  const route = routeTable(routes, AX_ERRORS);

  const handle: SimHandler = (request) => {
    const match = /^Bearer\s+(\S+)$/i.exec(headerValue(request, 'authorization')?.trim() ?? '');
    if (!match || !sameSecret(match[1], context.credentials.apiKey))
      return AX_ERRORS.unauthorized('Invalid API-key provided.');
    if (request.bodyError) return AX_ERRORS.badRequest(request.bodyError);
    return route(request);
  };

  return {
    handle,
    forceState(taskId: string, patch: ForcedPatch | null) {
      if (!tasks.has(taskId)) throw new Error(`ax simulator has no task ${taskId}`);
      forced.set(taskId, patch);
    },
    finish(taskId: string) {
      const task = tasks.get(taskId);
      if (!task) throw new Error(`ax simulator has no task ${taskId}`);
      endNow(task.timeline);
    },
  };
}
