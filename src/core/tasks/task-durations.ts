/** Run times remembered per kind of task: enough for a stable low quantile, little enough to follow a change. */
const REMEMBERED = 32;
/** Below this many finished tasks of a kind, nothing is learned yet. */
const ENOUGH = 4;
/** The quantile of recent run times the first poll aims at: most tasks of the kind take at least this long. */
const QUANTILE = 0.2;

/**
 * How long tasks of one kind (family, action, model) have recently taken from creation to their
 * observed end, on this instance. The polls of a new task of that kind are timed from it (see
 * `TaskLifecycle.nextPollDelay`), so a kind that takes minutes is not polled a dozen times on the
 * way (nor seen late after a long back-off), and one that takes seconds still starts at the base delay.
 */
export class TaskDurations {
  private readonly runTimes = new Map<string, number[]>();

  observe(kind: string, runMs: number): void {
    if (!(runMs > 0)) return;
    let recent = this.runTimes.get(kind);
    if (!recent) this.runTimes.set(kind, (recent = []));
    recent.push(runMs);
    if (recent.length > REMEMBERED) recent.shift();
  }

  /** A low quantile of the kind's recent run times, or undefined when too few have finished yet. */
  typical(kind: string): number | undefined {
    const recent = this.runTimes.get(kind);
    if (!recent || recent.length < ENOUGH) return undefined;
    const sorted = [...recent].sort((a, b) => a - b);
    return sorted[Math.floor((sorted.length - 1) * QUANTILE)];
  }
}

/** The kind a task's run time is learned under. */
export function durationKind(task: { family: string; action: string; model: string | null }): string {
  return `${task.family}|${task.action}|${task.model ?? ''}`;
}
