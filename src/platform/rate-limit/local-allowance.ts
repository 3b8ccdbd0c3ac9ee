/** What a request learns from the rate limiter. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** The shared window's answer to taking `points`: its count after adding them, and when it ends. */
export interface WindowTake {
  consumed: number;
  msBeforeNext: number;
}

/** Adds `points` to `key`'s shared per-minute count (Redis), whatever the limit; never refuses. */
export type TakeFromWindow = (key: string, perMinute: number, points: number) => Promise<WindowTake>;

/** A limit is split in batches of this share of it (1%) ... */
const BATCH_DIVISOR = 100;
/** ... of at most this many requests. */
const MAX_BATCH = 50;
/** Past this many accounts, allowances whose window has ended are swept out. */
const SWEEP_AT = 10_000;

/**
 * How many requests an instance takes from the shared count at once for a limit of `perMinute`:
 * 1% of it, between 1 (limits under 200 a minute stay exact per request) and 50.
 */
export function allowanceBatch(perMinute: number): number {
  return Math.min(MAX_BATCH, Math.max(1, Math.floor(perMinute / BATCH_DIVISOR)));
}

interface Allowance {
  /** Requests this instance may still let through in the current window without asking Redis. */
  left: number;
  /** Monotonic time the shared window ends at. */
  endsAt: number;
  /**
   * What the shared count had left after this instance's last take; at 0, once `left` is spent, refuse until `endsAt`.
   */
  sharedRemaining: number;
  /** A take in flight; requests that find nothing left wait for it instead of sending their own. */
  pending?: Promise<void>;
}

/**
 * Per-account request allowances taken from a shared fixed-window count in batches (see
 * `allowanceBatch`), so that most requests are decided in process instead of by a Redis round trip
 * each (docs/decisions.md, "With Redis, rate limits are taken in batches"). The shared count is
 * only ever increased by what an instance takes, so all instances together never let more than the
 * limit through in a window; the price is that a batch taken by one instance and not yet used is
 * not available to another, so with N instances a client can be refused up to (N-1) x (batch-1)
 * requests before its limit (at most 1% of the limit per other instance). Once the shared count
 * is spent, refusals are answered in process until the window ends (it cannot reopen sooner).
 */
export class LocalAllowances {
  private readonly allowances = new Map<string, Allowance>();

  constructor(
    private readonly take: TakeFromWindow,
    /** Monotonic milliseconds: the windows mirror Redis's real-time expiry. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  async consume(key: string, perMinute: number): Promise<RateDecision> {
    const id = `${perMinute}:${key}`;
    for (;;) {
      const allowance = this.allowances.get(id);
      const now = this.now();
      if (allowance && now < allowance.endsAt) {
        const resetSeconds = Math.max(1, Math.ceil((allowance.endsAt - now) / 1000));
        if (allowance.left > 0) {
          allowance.left--;
          return {
            allowed: true,
            limit: perMinute,
            remaining: allowance.sharedRemaining + allowance.left,
            resetSeconds,
          };
        }
        if (allowance.sharedRemaining === 0) return { allowed: false, limit: perMinute, remaining: 0, resetSeconds };
      }
      await (allowance?.pending ?? this.refill(id, key, perMinute));
    }
  }

  private refill(id: string, key: string, perMinute: number): Promise<void> {
    let allowance = this.allowances.get(id);
    if (!allowance) {
      if (this.allowances.size >= SWEEP_AT) this.sweep();
      allowance = { left: 0, endsAt: 0, sharedRemaining: 0 };
      this.allowances.set(id, allowance);
    }
    const target = allowance;
    const batch = allowanceBatch(perMinute);
    // One take in flight per allowance: every other request that finds nothing left waits for it.
    const pending = this.take(key, perMinute, batch)
      .then(({ consumed, msBeforeNext }) => {
        // What the shared count held before this take decides how much of the batch is ours.
        target.left = Math.max(0, Math.min(batch, perMinute - (consumed - batch)));
        target.sharedRemaining = Math.max(0, perMinute - consumed);
        target.endsAt = this.now() + msBeforeNext;
      })
      .finally(() => {
        target.pending = undefined;
      });
    target.pending = pending;
    return pending;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, allowance] of this.allowances)
      if (allowance.endsAt <= now && !allowance.pending) this.allowances.delete(id);
  }
}
