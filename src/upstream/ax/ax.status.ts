import type { StatusTable } from '../http/snapshot-helpers';

/** Family B `output.task_status` -> normalised state. `UNKNOWN` stays unknown: the worker keeps asking. */
export const AX_STATUS: StatusTable = new Map([
  ['PENDING', 'queued'],
  ['RUNNING', 'running'],
  ['SUCCEEDED', 'succeeded'],
  ['FAILED', 'failed'],
  ['CANCELED', 'failed'],
  ['UNKNOWN', 'unknown'],
]);

export const normaliseAxStatus = (word: string): string => word.toUpperCase();
