/** Creates and errors in a window. */
export interface CallCounts {
  creates: number;
  errors: number;
}

export interface ChannelFigures {
  lastMinute: CallCounts;
  lastHour: CallCounts;
  /** Over the channel's last `LATENCY_SAMPLES` creates within the hour; null without any. */
  latencyMs: { p50: number; p99: number } | null;
  lastError: { at: number; message: string } | null;
}

const LATENCY_SAMPLES = 1024;

interface Bucket {
  /** Start of the bucket's second or minute (ms since the epoch, rounded down). */
  start: number;
  creates: number;
  errors: number;
}

class ChannelWindow {
  /** 60 one-second buckets (the last minute) and 60 one-minute buckets (the last hour), as rings. */
  readonly seconds: Bucket[] = ring();
  readonly minutes: Bucket[] = ring();
  readonly latencies = new Float64Array(LATENCY_SAMPLES);
  readonly latencyAt = new Float64Array(LATENCY_SAMPLES);
  samples = 0;
  lastError: { at: number; message: string } | null = null;
}

/**
 * Rolling figures of the creates sent to each channel, kept in this process only (each instance
 * counts its own calls): O(1) per create, computed on demand for the operator view.
 */
export class ChannelStats {
  private readonly windows = new Map<string, ChannelWindow>();

  record(channelId: string, latencyMs: number, error: string | undefined, nowMs = Date.now()): void {
    let w = this.windows.get(channelId);
    if (!w) this.windows.set(channelId, (w = new ChannelWindow()));
    add(bucketAt(w.seconds, nowMs, 1000), error);
    add(bucketAt(w.minutes, nowMs, 60_000), error);
    const slot = w.samples++ % LATENCY_SAMPLES;
    w.latencies[slot] = latencyMs;
    w.latencyAt[slot] = nowMs;
    if (error !== undefined) w.lastError = { at: nowMs, message: error };
  }

  figures(channelId: string, nowMs = Date.now()): ChannelFigures {
    const w = this.windows.get(channelId);
    if (!w) return { lastMinute: zero(), lastHour: zero(), latencyMs: null, lastError: null };
    const recent: number[] = [];
    for (let i = 0; i < Math.min(w.samples, LATENCY_SAMPLES); i++)
      if (nowMs - w.latencyAt[i] < 3_600_000) recent.push(w.latencies[i]);
    recent.sort((a, b) => a - b);
    return {
      lastMinute: sum(w.seconds, nowMs - 60_000),
      lastHour: sum(w.minutes, nowMs - 3_600_000),
      latencyMs: recent.length === 0 ? null : { p50: quantile(recent, 0.5), p99: quantile(recent, 0.99) },
      lastError: w.lastError,
    };
  }
}

function ring(): Bucket[] {
  return Array.from({ length: 60 }, () => ({ start: -Infinity, creates: 0, errors: 0 }));
}

function bucketAt(buckets: Bucket[], nowMs: number, size: number): Bucket {
  const start = Math.floor(nowMs / size) * size;
  const bucket = buckets[Math.floor(nowMs / size) % buckets.length];
  if (bucket.start !== start) {
    bucket.start = start;
    bucket.creates = 0;
    bucket.errors = 0;
  }
  return bucket;
}

function add(bucket: Bucket, error: string | undefined): void {
  bucket.creates++;
  if (error !== undefined) bucket.errors++;
}

/** Buckets that started after `since` (a bucket straddling the edge counts whole: at most one bucket too many). */
function sum(buckets: readonly Bucket[], since: number): CallCounts {
  const total = zero();
  for (const bucket of buckets) {
    if (bucket.start <= since) continue;
    total.creates += bucket.creates;
    total.errors += bucket.errors;
  }
  return total;
}

function zero(): CallCounts {
  return { creates: 0, errors: 0 };
}

/** Nearest-rank quantile of sorted values, rounded to the millisecond. */
function quantile(sorted: readonly number[], q: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);
}
