import { SimMarker } from './markers';

/** Where a simulated task is in its life, derived from the clock alone (no timers needed). */
export type TaskPhase = 'queued' | 'running' | 'succeeded' | 'failed';

export interface TaskTimeline {
  readonly createdAt: number;
  /** Time from creation to the terminal state. */
  readonly durationMs: number;
  readonly outcome: 'succeeded' | 'failed';
}

export function newTimeline(taskMs: number, markers: Set<SimMarker>, now = Date.now()): TaskTimeline {
  return {
    createdAt: now,
    durationMs: markers.has('slow') ? taskMs * 10 : taskMs,
    outcome: markers.has('fail') ? 'failed' : 'succeeded',
  };
}

/** Queued for the first half, running for the second half, then the outcome. */
export function phaseAt(timeline: TaskTimeline, now = Date.now()): TaskPhase {
  const elapsed = now - timeline.createdAt;
  if (elapsed >= timeline.durationMs) return timeline.outcome;
  return elapsed >= timeline.durationMs / 2 ? 'running' : 'queued';
}

export function isTerminal(phase: TaskPhase): boolean {
  return phase === 'succeeded' || phase === 'failed';
}

export function runningAt(timeline: TaskTimeline): number {
  return timeline.createdAt + Math.floor(timeline.durationMs / 2);
}

export function terminalAt(timeline: TaskTimeline): number {
  return timeline.createdAt + timeline.durationMs;
}

/** When the phase shown at `now` began (used for `updated_at`-style fields). */
export function phaseStartedAt(timeline: TaskTimeline, now = Date.now()): number {
  const phase = phaseAt(timeline, now);
  if (phase === 'queued') return timeline.createdAt;
  return phase === 'running' ? runningAt(timeline) : terminalAt(timeline);
}
