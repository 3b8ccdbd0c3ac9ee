import type { StatusTable } from '../http/snapshot-helpers';
import type { UpstreamTaskState } from '../upstream.types';
import type { VdState } from './vd.wire';

/** vd `state` -> normalised state (wire doc: created -> queueing -> processing -> success | failed). */
export const VD_STATUS: StatusTable = new Map<VdState, UpstreamTaskState>([
  ['created', 'queued'],
  ['queueing', 'queued'],
  ['processing', 'running'],
  ['success', 'succeeded'],
  ['failed', 'failed'],
]);

export const normaliseVdStatus = (word: string): string => word.toLowerCase();

/** The `err_code` of a task the vendor cancelled (its state then reads `failed`). */
export const VD_CANCELLED_CODE = 'UserCancelled';
