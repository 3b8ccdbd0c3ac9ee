import { callbackUrlOf } from '../callback-dispatcher';
import { arrayField, asRecord, nonEmptyString } from '../body-fields';
import { FamilyContext, FamilySimulator, assetUrl } from '../family';
import { ForcedPatches } from '../forced-patch';
import { headerValue, json, SimAnswer, SimHandler, SimRequest } from '../http/sim-answer';
import { Route, routeTable } from '../http/router';
import { numericId } from '../ids';
import { markerRefusal, readMarkers } from '../markers';
import { sameSecret } from '../secret-compare';
import { simModelName } from '../sim-models';
import { VD_SIM_MODELS } from './vd-models';
import { ForcedPatch } from '../sim-types';
import { TaskPhase, TaskTimeline, cancelNow, endNow, newTimeline, phaseAt, terminalAt } from '../task-clock';
import { VD_ERRORS } from './vd-errors';
import { taskFieldsOf } from './vd-task-fields';
import { VD_PATHS } from '../../upstream/vd/vd.api';
import { VD_CANCELLED_CODE } from '../../upstream/vd/vd.status';
import type { VdCreatedAnswer, VdCreationsAnswer, VdState, VdTaskFields } from '../../upstream/vd/vd.wire';

const VD_STATE: Record<TaskPhase, VdState> = {
  queued: 'queueing',
  running: 'processing',
  succeeded: 'success',
  failed: 'failed',
  // The vendor shows a cancelled task as failed, with its own code for it.
  cancelled: 'failed',
};
const FAILURE_CODE = 'CreationPolicyViolation';
/** The states in which the vendor still cancels a task (not yet scheduled). */
const CANCELLABLE: ReadonlySet<unknown> = new Set<VdState>(['created', 'queueing']);

interface VdTask {
  readonly taskId: string;
  readonly creationId: string;
  readonly timeline: TaskTimeline;
  readonly fields: VdTaskFields;
}

/** vd: reference-to-video under `/ent/v2`. */
export function createVdSimulator(context: FamilyContext): FamilySimulator {
  const tasks = new Map<string, VdTask>();
  const forced = new ForcedPatches();

  /** The exact body the creations query answers, also POSTed to the callback URL. */
  const creationsBody = (task: VdTask, now: number): unknown => {
    const phase = phaseAt(task.timeline, now);
    const tag = { task_id: task.taskId };
    const answer: VdCreationsAnswer = {
      id: task.taskId,
      state: VD_STATE[phase],
      err_code: phase === 'failed' ? FAILURE_CODE : phase === 'cancelled' ? VD_CANCELLED_CODE : '',
      credits: phase === 'failed' || phase === 'cancelled' ? 0 : task.fields.credits,
      payload: task.fields.payload,
      creations:
        phase !== 'succeeded'
          ? []
          : [
              {
                id: task.creationId,
                url: assetUrl(context.baseUrl, 'sample.mp4', tag),
                cover_url: assetUrl(context.baseUrl, 'sample.png', tag),
                watermarked_url: assetUrl(context.baseUrl, 'sample.mp4', { ...tag, watermark: '1' }),
              },
            ],
    };
    return forced.apply(task.taskId, answer);
  };

  const create = (request: SimRequest): SimAnswer => {
    const body = asRecord(request.body);
    const markers = readMarkers(body?.prompt);
    const refusal = markerRefusal(markers, VD_ERRORS);
    if (refusal) return refusal;
    const model = nonEmptyString(body, 'model');
    if (!model) return VD_ERRORS.badRequest('model is required');
    if (!simModelName(VD_SIM_MODELS, model)) return VD_ERRORS.badRequest(`model ${model} is not supported`);
    if (!nonEmptyString(body, 'prompt')) return VD_ERRORS.badRequest('prompt is required');
    const hasReferences =
      (arrayField(body, 'subjects')?.length ?? 0) > 0 || (arrayField(body, 'images')?.length ?? 0) > 0;
    if (!hasReferences) return VD_ERRORS.badRequest('subjects or images is required');

    const task: VdTask = {
      taskId: numericId(18),
      creationId: numericId(18),
      timeline: newTimeline(context.taskMs(), markers),
      fields: taskFieldsOf(body),
    };
    tasks.set(task.taskId, task);
    const callbackUrl = callbackUrlOf(body?.callback_url);
    if (callbackUrl) {
      const at = terminalAt(task.timeline);
      context.callbacks.schedule(callbackUrl, at, () => creationsBody(task, Math.max(Date.now(), at)));
    }
    const created: VdCreatedAnswer = {
      task_id: task.taskId,
      state: 'created',
      ...task.fields,
      created_at: new Date(task.timeline.createdAt).toISOString(),
    };
    return json(200, created);
  };

  /**
   * The vendor cancels a task only while the query shows it not yet scheduled (`created`, `queueing`) and
   * answers `{}`; afterwards it refuses with 400 `BadRequest`.
   */
  const cancel = (id: string): SimAnswer => {
    const task = tasks.get(id);
    if (!task) return VD_ERRORS.notFound(`task ${id} not found`);
    const now = Date.now();
    const state = asRecord(creationsBody(task, now))?.state;
    if (!CANCELLABLE.has(state))
      return VD_ERRORS.badRequest(
        `task state is ${state === 'processing' ? 'scheduled' : String(state)}, can not cancel`,
      );
    cancelNow(task.timeline, now);
    return json(200, {});
  };

  const routes: Route[] = [
    { method: 'POST', pattern: new RegExp(`^${VD_PATHS.reference2video}$`), handle: create },
    {
      method: 'GET',
      pattern: new RegExp(`^${VD_PATHS.tasks}/([^/]+)/creations$`),
      handle: (_request, [id]) => {
        const task = tasks.get(id);
        return task ? json(200, creationsBody(task, Date.now())) : VD_ERRORS.notFound(`task ${id} not found`);
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${VD_PATHS.tasks}/([^/]+)/cancel$`),
      handle: (_request, [id]) => cancel(id),
    },
  ];
  const route = routeTable(routes, VD_ERRORS);

  const handle: SimHandler = (request) => {
    const match = /^Token\s+(\S+)$/i.exec(headerValue(request, 'authorization')?.trim() ?? '');
    if (!match || !sameSecret(match[1], context.credentials.apiKey)) return VD_ERRORS.unauthorized('invalid api key');
    if (request.bodyError) return VD_ERRORS.badRequest(request.bodyError);
    return route(request);
  };

  return {
    handle,
    forceState(taskId: string, patch: ForcedPatch | null) {
      if (!tasks.has(taskId)) throw new Error(`vd simulator has no task ${taskId}`);
      forced.set(taskId, patch);
    },
    finish(taskId: string) {
      const task = tasks.get(taskId);
      if (!task) throw new Error(`vd simulator has no task ${taskId}`);
      endNow(task.timeline);
    },
  };
}
