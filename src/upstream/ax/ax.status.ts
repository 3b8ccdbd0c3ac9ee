import type { StatusTable } from '../http/snapshot-helpers';

/**
 * ax `output.task_status` -> normalised state. `UNKNOWN` never reaches the engine as a state:
 * the vendor answers it for an invalid or expired (older than 24 h) task ID, so the client reports
 * the task as lost instead (see `AX_LOST_STATUS`).
 */
export const AX_STATUS: StatusTable = new Map([
  ['PENDING', 'queued'],
  ['RUNNING', 'running'],
  ['SUCCEEDED', 'succeeded'],
  ['FAILED', 'failed'],
  ['CANCELED', 'cancelled'],
  ['UNKNOWN', 'unknown'],
]);

export const normaliseAxStatus = (word: string): string => word.toUpperCase();

/** The word with which the upstream says it no longer knows the task. */
export const AX_LOST_STATUS = 'UNKNOWN';
