import type { Server, ServerResponse } from 'http';
import { getHeapSpaceStatistics } from 'v8';
import { fastPathsOn } from '../config/fast-paths';

/** How full V8's young generation is, in bytes. */
export interface YoungGeneration {
  used: number;
  capacity: number;
}

export interface IdleScavengeOptions {
  /** Runs one minor collection (a scavenge) now. */
  collect: () => void;
  young?: () => YoungGeneration;
  /** A monotonic clock in milliseconds. */
  nowMs?: () => number;
  /** Runs a function once the current turn's I/O is done. */
  defer?: (run: () => void) => void;
  /** The young generation's fill at or above which an idle moment is used for a scavenge. */
  fill?: number;
  /** Forced scavenges are at least this far apart. */
  minIntervalMs?: number;
}

export const IDLE_SCAVENGE_FILL = 0.75;
export const IDLE_SCAVENGE_MIN_INTERVAL_MS = 100;

/**
 * Moves young-generation collections out of requests. V8 scavenges when an allocation finds the
 * young generation full, which is always inside some request's work, and that request waits for
 * the whole pause. When the last request in flight has ended and the young generation is at
 * least `fill` full, this scavenges at once, while nothing waits: a request arriving during the
 * pause waits only for what is left of it. Under steady load without idle moments it never runs
 * and V8 scavenges as usual; at most one forced scavenge per `minIntervalMs` bounds its cost when
 * the survivors alone keep the young generation full.
 *
 * Hand-written because: no library schedules V8's collections around HTTP requests; it is a
 * counter and one comparison per idle moment (docs/hand-written.md).
 */
export class IdleScavenger {
  private inFlight = 0;
  private checkQueued = false;
  private lastForcedAt = Number.NEGATIVE_INFINITY;
  /** Scavenges run by this scavenger. */
  forced = 0;

  private readonly collect: () => void;
  private readonly young: () => YoungGeneration;
  private readonly nowMs: () => number;
  private readonly defer: (run: () => void) => void;
  private readonly fill: number;
  private readonly minIntervalMs: number;

  constructor(options: IdleScavengeOptions) {
    this.collect = options.collect;
    this.young = options.young ?? readYoungGeneration;
    this.nowMs = options.nowMs ?? (() => performance.now());
    this.defer = options.defer ?? ((run) => setImmediate(run));
    this.fill = options.fill ?? IDLE_SCAVENGE_FILL;
    this.minIntervalMs = options.minIntervalMs ?? IDLE_SCAVENGE_MIN_INTERVAL_MS;
  }

  /** Counts the server's requests in flight; one listener for the server, none made per request. */
  attach(server: Server): void {
    const ended = (): void => this.requestEnded();
    server.prependListener('request', (_req: unknown, res: ServerResponse) => {
      this.requestStarted();
      res.on('close', ended);
    });
  }

  requestStarted(): void {
    this.inFlight++;
  }

  requestEnded(): void {
    this.inFlight--;
    if (this.inFlight > 0 || this.checkQueued) return;
    // After the answer's own write and whatever else this turn had to do.
    this.checkQueued = true;
    this.defer(this.checkIdle);
  }

  private readonly checkIdle = (): void => {
    this.checkQueued = false;
    if (this.inFlight > 0) return;
    const now = this.nowMs();
    if (now - this.lastForcedAt < this.minIntervalMs) return;
    const { used, capacity } = this.young();
    if (capacity <= 0 || used < this.fill * capacity) return;
    this.lastForcedAt = now;
    this.forced++;
    this.collect();
  };
}

/** V8's young generation: the semi-space in use, its live and free bytes. */
export function readYoungGeneration(): YoungGeneration {
  for (const space of getHeapSpaceStatistics())
    if (space.space_name === 'new_space')
      return { used: space.space_used_size, capacity: space.space_used_size + space.space_available_size };
  return { used: 0, capacity: 0 };
}

type ExposedGc = (options?: { type?: 'minor' | 'major'; execution?: 'sync' | 'async' }) => void;

/** A minor collection, when node runs with `--expose-gc` (not by default: docs/hand-written.md); else undefined. */
export function minorCollection(global: { gc?: unknown } = globalThis as { gc?: unknown }): (() => void) | undefined {
  const gc = global.gc;
  if (typeof gc !== 'function') return undefined;
  return () => (gc as ExposedGc)({ type: 'minor' });
}

/**
 * Attaches an idle scavenger to the server when it is wanted, fast paths are on (`FAST_PATHS`) and
 * node exposes the collector; returns it.
 */
export function startIdleScavenges(
  server: Server,
  wanted: boolean,
  collect: (() => void) | undefined = minorCollection(),
): IdleScavenger | undefined {
  if (!wanted || !fastPathsOn('idle-scavenge') || !collect) return undefined;
  const scavenger = new IdleScavenger({ collect });
  scavenger.attach(server);
  return scavenger;
}
