import { callbackUrlOf } from '../callback-dispatcher';
import { FamilyContext, FamilySimulator } from '../family';
import { ForcedPatches } from '../forced-patch';
import { headerValue, SimAnswer, SimHandler, SimRequest, json } from '../http/sim-answer';
import { Route, routeTable } from '../http/router';
import { runningAt, terminalAt } from '../task-clock';
import { klAuthRefusal } from './kl-auth';
import { KlEditing } from './kl-editing';
import { KL_ERRORS, klEnvelope } from './kl-envelope';
import { KlSessions } from './kl-sessions';
import { KlTask, KlTaskStore } from './kl-task-store';
import { KlVoices } from './kl-voices';
import { ForcedPatch } from '../sim-types';

const ELEMENTS = '/v1/videos/multi-elements';

/** kl: editing sessions, editing tasks and voices under `/v1`. */
export function createKlSimulator(context: FamilyContext): FamilySimulator {
  const store = new KlTaskStore();
  const forced = new ForcedPatches();
  const sessions = new KlSessions(context.baseUrl);

  /** The exact body `GET` answers for a task, also POSTed to its callback URL. */
  const queryBody = (task: KlTask, now: number): unknown =>
    forced.apply(
      task.taskId,
      klEnvelope(task.kind === 'editing' ? editing.render(task, now) : voices.render(task, now)),
    );

  /** kl calls back on every status change (submitted -> processing -> succeed | failed), not only at the end. */
  const scheduleCallback = (task: KlTask, callbackUrl: unknown): void => {
    const url = callbackUrlOf(callbackUrl);
    if (!url) return;
    for (const at of [runningAt(task.timeline), terminalAt(task.timeline)]) {
      context.callbacks.schedule(url, at, () => queryBody(task, Math.max(Date.now(), at)));
    }
  };

  const editing = new KlEditing(context.baseUrl, context.taskMs, sessions, store, scheduleCallback);
  const voices = new KlVoices(context.baseUrl, context.taskMs, store, scheduleCallback);

  const query = (kind: KlTask['kind'], id: string): SimAnswer => {
    const task = store.find(kind, id);
    return task ? json(200, queryBody(task, Date.now())) : KL_ERRORS.notFound(`task ${id} not found`);
  };

  const routes: Route[] = [
    { method: 'POST', pattern: /^\/v1\/videos\/multi-elements\/init-selection$/, handle: (r) => sessions.init(r.body) },
    {
      method: 'POST',
      pattern: /^\/v1\/videos\/multi-elements\/add-selection$/,
      handle: (r) => sessions.addSelection(r.body),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/videos\/multi-elements\/delete-selection$/,
      handle: (r) => sessions.deleteSelection(r.body),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/videos\/multi-elements\/clear-selection$/,
      handle: (r) => sessions.clearSelection(r.body),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/videos\/multi-elements\/preview-selection$/,
      handle: (r) => sessions.previewSelection(r.body),
    },
    { method: 'POST', pattern: new RegExp(`^${ELEMENTS}$`), handle: (r) => editing.create(r.body) },
    { method: 'GET', pattern: new RegExp(`^${ELEMENTS}/([^/]+)$`), handle: (_r, [id]) => query('editing', id) },
    { method: 'POST', pattern: /^\/v1\/general\/custom-voices$/, handle: (r) => voices.create(r.body) },
    { method: 'GET', pattern: /^\/v1\/general\/custom-voices\/([^/]+)$/, handle: (_r, [id]) => query('voice', id) },
    { method: 'GET', pattern: /^\/v1\/general\/presets-voices$/, handle: (r) => voices.presets(r.query) },
    { method: 'POST', pattern: /^\/v1\/general\/delete-voices$/, handle: (r) => voices.delete(r.body) },
  ];
  const route = routeTable(routes, KL_ERRORS);
  const keys = context.credentials;

  const handle: SimHandler = (request: SimRequest) => {
    const refusal = klAuthRefusal(headerValue(request, 'authorization'), keys);
    if (refusal) return KL_ERRORS.unauthorized(refusal);
    if (request.bodyError) return KL_ERRORS.badRequest(request.bodyError);
    return route(request);
  };

  return {
    handle,
    forceState(taskId: string, patch: ForcedPatch | null) {
      if (!store.get(taskId)) throw new Error(`kl simulator has no task ${taskId}`);
      forced.set(taskId, patch);
    },
  };
}
