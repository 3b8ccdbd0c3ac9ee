/** kl wire description: paths below the channel base URL and the task operations. */

/** The segment every path starts with: the client adds it, so a channel's base URL must not end in it. */
export const KL_PATH_PREFIX = '/v1';

export const KL_PATHS = {
  initSelection: '/v1/videos/multi-elements/init-selection',
  addSelection: '/v1/videos/multi-elements/add-selection',
  deleteSelection: '/v1/videos/multi-elements/delete-selection',
  clearSelection: '/v1/videos/multi-elements/clear-selection',
  previewSelection: '/v1/videos/multi-elements/preview-selection',
  multiElements: '/v1/videos/multi-elements',
  customVoices: '/v1/general/custom-voices',
  presetsVoices: '/v1/general/presets-voices',
  deleteVoices: '/v1/general/delete-voices',
} as const;

/** The non-task endpoints reachable through `KlClient.call` (sessions, preset voices, voice deletion). */
export const KL_CALL_PATHS = [
  KL_PATHS.initSelection,
  KL_PATHS.addSelection,
  KL_PATHS.deleteSelection,
  KL_PATHS.clearSelection,
  KL_PATHS.previewSelection,
  KL_PATHS.presetsVoices,
  KL_PATHS.deleteVoices,
] as const;
export type KlCallPath = (typeof KL_CALL_PATHS)[number];

export type KlOperation = 'multi_elements' | 'custom_voices';

export interface KlTaskEndpoints {
  readonly createPath: string;
  /**
   * Query by upstream task ID, or by our `external_task_id` in its place: the documented form
   * (`GET <collection>/{id}`, "task_id or external_task_id, choose one").
   */
  readonly queryPath: (taskId: string) => string;
  /**
   * The other reading of that ambiguous documentation: the collection with `?external_task_id=`.
   * Tried only when the documented form finds nothing.
   */
  readonly referenceQuery: (externalTaskId: string) => { path: string; query: Record<string, string> };
}

function taskEndpoints(collection: string): KlTaskEndpoints {
  return {
    createPath: collection,
    queryPath: (id) => `${collection}/${encodeURIComponent(id)}`,
    referenceQuery: (externalTaskId) => ({ path: collection, query: { external_task_id: externalTaskId } }),
  };
}

export const KL_OPERATIONS: Readonly<Record<KlOperation, KlTaskEndpoints>> = {
  multi_elements: taskEndpoints(KL_PATHS.multiElements),
  custom_voices: taskEndpoints(KL_PATHS.customVoices),
};

export function klOperation(operation: string): KlTaskEndpoints {
  if (!Object.prototype.hasOwnProperty.call(KL_OPERATIONS, operation))
    throw new Error(`kl upstream has no task operation "${operation}".`);
  return KL_OPERATIONS[operation as KlOperation];
}

export function klAuthHeaders(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}
