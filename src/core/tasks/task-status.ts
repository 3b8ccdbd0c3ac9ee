import type { UpstreamTaskState } from '../../upstream/upstream.types';
import type { OuterStatus, TaskPhase } from './entities/task.entity';

export function phaseOf(state: UpstreamTaskState): TaskPhase {
  if (state === 'succeeded') return 'succeeded';
  if (state === 'failed') return 'failed';
  if (state === 'cancelled') return 'cancelled';
  return 'active';
}

export function isTerminal(phase: TaskPhase): boolean {
  return phase === 'succeeded' || endedWithoutResult(phase);
}

/** An ending that produced nothing and is charged nothing: failed, cancelled, or refused at creation. */
export function endedWithoutResult(phase: TaskPhase): boolean {
  return phase === 'failed' || phase === 'cancelled' || phase === 'rejected';
}

/** kl list-item outer status: SUCCESS only ever with 100%. */
export function outerStatusOf(phase: TaskPhase, state: UpstreamTaskState | null): OuterStatus {
  if (phase === 'submitting') return 'NOT_START';
  if (phase === 'succeeded') return 'SUCCESS';
  if (endedWithoutResult(phase)) return 'FAILURE';
  switch (state) {
    case 'queued':
      return 'QUEUED';
    case 'running':
      return 'IN_PROGRESS';
    case 'unknown':
      return 'UNKNOWN';
    default:
      return 'SUBMITTED';
  }
}

/** 0..100; success is always 100, running without a figure shows half way. */
export function progressOf(
  phase: TaskPhase,
  state: UpstreamTaskState | null,
  reported: number | undefined,
  previous: number,
): number {
  if (phase === 'succeeded') return 100;
  if (endedWithoutResult(phase)) return previous;
  if (typeof reported === 'number' && Number.isFinite(reported))
    return Math.max(previous, Math.min(99, Math.max(0, Math.round(reported))));
  return Math.max(previous, state === 'running' ? 50 : 0);
}
