import type { StatusTable } from '../http/snapshot-helpers';

/** kl `task_status` -> normalised state (wire doc: submitted -> processing -> succeed | failed). */
export const KL_STATUS: StatusTable = new Map([
  ['submitted', 'queued'],
  ['processing', 'running'],
  ['succeed', 'succeeded'],
  ['failed', 'failed'],
]);

export const normaliseKlStatus = (word: string): string => word.toLowerCase();
