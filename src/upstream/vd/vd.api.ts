/** vd wire description: paths below the channel base URL, task operations and auth. */

/** The segments every path starts with: the client adds them, so a channel's base URL must not end in them. */
export const VD_PATH_PREFIX = '/ent/v2';

export const VD_PATHS = {
  reference2video: '/ent/v2/reference2video',
  tasks: '/ent/v2/tasks',
} as const;

export type VdOperation = 'reference2video';

interface VdTaskEndpoints {
  readonly createPath: string;
  readonly queryPath: (taskId: string) => string;
  /** The vendor's cancel: a task not yet scheduled (`created`, `queueing`) only. */
  readonly cancelPath: (taskId: string) => string;
}

export const VD_OPERATIONS: Readonly<Record<VdOperation, VdTaskEndpoints>> = {
  // Subject and non-subject mode share one endpoint; the body decides.
  reference2video: {
    createPath: VD_PATHS.reference2video,
    queryPath: (id) => `${VD_PATHS.tasks}/${encodeURIComponent(id)}/creations`,
    cancelPath: (id) => `${VD_PATHS.tasks}/${encodeURIComponent(id)}/cancel`,
  },
};

export function vdOperation(operation: string): VdTaskEndpoints {
  if (!Object.prototype.hasOwnProperty.call(VD_OPERATIONS, operation))
    throw new Error(`vd upstream has no task operation "${operation}".`);
  return VD_OPERATIONS[operation as VdOperation];
}

export function vdAuthHeaders(apiKey: string): Record<string, string> {
  return { Authorization: `Token ${apiKey}` };
}
