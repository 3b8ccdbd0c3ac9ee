import { SimMarker } from './markers';

/** Where a simulated task is in its life, derived from the clock alone (no timers needed). */
export type TaskPhase = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface TaskTimeline {
  readonly createdAt: number;
  /** Time from creation to the terminal state. */
  readonly durationMs: number;
  readonly outcome: 'succeeded' | 'failed';
  /** When the vendor's cancel stopped the task. */
  cancelledAt?: number;
  /** When a test ended the task ahead of its time (`finishTask`). */
  endedAt?: number;
}

export function newTimeline(taskMs: number, markers: Set<SimMarker>, now = Date.now()): TaskTimeline {
  return {
    createdAt: now,
    durationMs: markers.has('slow') ? taskMs * 10 : taskMs,
    outcome: markers.has('fail') ? 'failed' : 'succeeded',
  };
}

/** Queued for the first half, running for the second half, then the outcome (or cancelled, once cancelled). */
export function phaseAt(timeline: TaskTimeline, now = Date.now()): TaskPhase {
  if (timeline.cancelledAt !== undefined && now >= timeline.cancelledAt) return 'cancelled';
  if (now >= terminalAt(timeline)) return timeline.outcome;
  return now - timeline.createdAt >= timeline.durationMs / 2 ? 'running' : 'queued';
}

export function isTerminal(phase: TaskPhase): boolean {
  return phase === 'succeeded' || phase === 'failed' || phase === 'cancelled';
}

export function runningAt(timeline: TaskTimeline): number {
  return Math.min(timeline.createdAt + Math.floor(timeline.durationMs / 2), terminalAt(timeline));
}

export function terminalAt(timeline: TaskTimeline): number {
  return timeline.cancelledAt ?? timeline.endedAt ?? timeline.createdAt + timeline.durationMs;
}

/** The vendor's cancel, once its own rule allowed it: the task stops now, unless it already ended. */
export function cancelNow(timeline: TaskTimeline, now = Date.now()): void {
  if (!isTerminal(phaseAt(timeline, now))) timeline.cancelledAt = now;
}

/** Ends the task now with its outcome, as if its time were up (no effect on an ended task). */
export function endNow(timeline: TaskTimeline, now = Date.now()): void {
  if (!isTerminal(phaseAt(timeline, now))) timeline.endedAt = now;
}

/** When the phase shown at `now` began (used for `updated_at`-style fields). */
export function phaseStartedAt(timeline: TaskTimeline, now = Date.now()): number {
  const phase = phaseAt(timeline, now);
  if (phase === 'queued') return timeline.createdAt;
  return phase === 'running' ? runningAt(timeline) : terminalAt(timeline);
}
