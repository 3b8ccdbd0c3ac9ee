/** ax wire description: paths below the channel base URL, task operations and headers. */

/** The segments every path starts with: the client adds them, so a channel's base URL must not end in them. */
export const AX_PATH_PREFIX = '/api/v1';

export const AX_PATHS = {
  videoSynthesis: '/api/v1/services/aigc/video-generation/video-synthesis',
  tasks: '/api/v1/tasks',
} as const;

/** Task creation is only asynchronous when this header says so; the platform adds it, callers never send it. */
export const AX_ASYNC_HEADER = 'X-DashScope-Async';
export const AX_ASYNC_HEADER_VALUE = 'enable';

export type AxOperation = 'r2v';

interface AxTaskEndpoints {
  readonly createPath: string;
  readonly queryPath: (taskId: string) => string;
  /** The vendor's cancel: a task still `PENDING` only. */
  readonly cancelPath: (taskId: string) => string;
}

export const AX_OPERATIONS: Readonly<Record<AxOperation, AxTaskEndpoints>> = {
  // Both request protocols (new `input.media`, old `input.reference_urls`) share one endpoint; the model picks.
  r2v: {
    createPath: AX_PATHS.videoSynthesis,
    queryPath: (id) => `${AX_PATHS.tasks}/${encodeURIComponent(id)}`,
    cancelPath: (id) => `${AX_PATHS.tasks}/${encodeURIComponent(id)}/cancel`,
  },
};

export function axOperation(operation: string): AxTaskEndpoints {
  if (!Object.prototype.hasOwnProperty.call(AX_OPERATIONS, operation))
    throw new Error(`ax upstream has no task operation "${operation}".`);
  return AX_OPERATIONS[operation as AxOperation];
}

export function axAuthHeaders(apiKey: string): Record<string, string> {
  return { Authorization: `Bearer ${apiKey}` };
}

export function axCreateHeaders(apiKey: string): Record<string, string> {
  return { ...axAuthHeaders(apiKey), [AX_ASYNC_HEADER]: AX_ASYNC_HEADER_VALUE };
}
