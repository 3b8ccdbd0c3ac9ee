/**
 * Upstream faults on demand (off unless asked for): with probability `rate` a request to any of the
 * simulator's API routes (never `/assets`) gets one fault, picked uniformly from `kinds`.
 *
 * | kind             | effect                                                                                   |
 * | ---------------- | ---------------------------------------------------------------------------------------- |
 * | `error5xx`       | the family's native 500, before the request is handled (nothing created)                 |
 * | `timeout`        | the request is handled (a create does create), then never answered                       |
 * | `reset`          | handled, then half the body is written and the connection is destroyed                  |
 * | `garbled`        | handled, then a 200 whose body is not valid JSON                                         |
 * | `string-numbers` | handled, every number in the answer sent as a string                                     |
 * | `unknown-status` | handled, the status word (`task_status`, `state`) replaced by one no upstream documents  |
 * | `slow`           | handled, the answer sent after `slowMs`                                                  |
 * | `regress`        | handled, a terminal status shown as running again (SUCCEEDED -> RUNNING, success -> ...) |
 *
 * `SIM_CHAOS` (standalone simulator) reads `rate[:kind,kind...]`, e.g. `0.2` or `0.3:reset,garbled`.
 */
export const CHAOS_KINDS = [
  'error5xx',
  'timeout',
  'reset',
  'garbled',
  'string-numbers',
  'unknown-status',
  'slow',
  'regress',
] as const;
export type ChaosKind = (typeof CHAOS_KINDS)[number];

export interface ChaosOptions {
  /** Probability in [0, 1] that a request gets a fault. */
  rate: number;
  /** Faults to pick from; default all of them. */
  kinds?: readonly ChaosKind[];
  /** Delay of a `slow` answer, ms (default 1500). */
  slowMs?: number;
  /** Seed of the fault picker, for a reproducible run (default random). */
  seed?: number;
}

export interface ChaosStats {
  /** API requests seen while chaos was on. */
  requests: number;
  /** Faults actually applied (a mutation that found nothing to change is not counted). */
  injected: number;
  byKind: Record<ChaosKind, number>;
}

export const UNKNOWN_STATUS = 'SIM_CHAOS_UNKNOWN';

/** Where a vendor's answers carry a task's status word, and which word each terminal one regresses to. */
export interface ChaosStatusWords {
  /** Keys holding a status word, at any depth (e.g. `task_status`, `state`). */
  readonly fields: readonly string[];
  /** Terminal status word -> the running word of the same upstream (the `regress` fault). */
  readonly regress: Readonly<Record<string, string>>;
}

export function validChaos(options: ChaosOptions): ChaosOptions {
  if (!Number.isFinite(options.rate) || options.rate < 0 || options.rate > 1)
    throw new Error(`chaos rate must be in [0, 1], got ${options.rate}`);
  for (const kind of options.kinds ?? [])
    if (!CHAOS_KINDS.includes(kind))
      throw new Error(`unknown chaos kind "${String(kind)}" (known: ${CHAOS_KINDS.join(', ')})`);
  if (options.kinds && options.kinds.length === 0) throw new Error('chaos kinds must not be empty');
  if (options.slowMs !== undefined && (!Number.isFinite(options.slowMs) || options.slowMs < 0))
    throw new Error(`chaos slowMs must be >= 0, got ${options.slowMs}`);
  return options;
}

/** `SIM_CHAOS`: unset, empty or `0` is off; `rate` or `rate:kind,kind`. Throws on anything else. */
export function parseChaos(text: string | undefined): ChaosOptions | undefined {
  const raw = (text ?? '').trim();
  if (raw === '' || raw === '0') return undefined;
  const [ratePart, kindsPart] = raw.split(':', 2);
  const rate = Number(ratePart);
  if (ratePart.trim() === '' || !Number.isFinite(rate))
    throw new Error(`SIM_CHAOS must be "rate" or "rate:kind,kind" (rate in [0, 1]), got "${raw}"`);
  const kinds = kindsPart === undefined ? undefined : (kindsPart.split(',').map((k) => k.trim()) as ChaosKind[]);
  return validChaos({ rate, kinds });
}

/** Decides which request gets which fault, and counts them. */
export class Chaos {
  private readonly kinds: readonly ChaosKind[];
  private readonly random: () => number;
  private readonly counts: ChaosStats;

  constructor(private readonly options: ChaosOptions) {
    validChaos(options);
    this.kinds = options.kinds ?? CHAOS_KINDS;
    this.random = mulberry32(options.seed ?? Math.floor(Math.random() * 2 ** 32));
    this.counts = {
      requests: 0,
      injected: 0,
      byKind: Object.fromEntries(CHAOS_KINDS.map((k) => [k, 0])) as Record<ChaosKind, number>,
    };
  }

  get slowMs(): number {
    return this.options.slowMs ?? 1500;
  }

  /** The fault for the next request, if any (not yet counted: call `record` once applied). */
  pick(): ChaosKind | undefined {
    this.counts.requests++;
    if (this.options.rate <= 0 || this.random() >= this.options.rate) return undefined;
    return this.kinds[Math.floor(this.random() * this.kinds.length) % this.kinds.length];
  }

  record(kind: ChaosKind): void {
    this.counts.injected++;
    this.counts.byKind[kind]++;
  }

  stats(): ChaosStats {
    return { requests: this.counts.requests, injected: this.counts.injected, byKind: { ...this.counts.byKind } };
  }
}

/**
 * The answer body changed by a mutating fault (`string-numbers`, `unknown-status`, `regress`);
 * `changed: false` when there was nothing to change (e.g. `regress` on a task still running).
 */
export function mutateBody(
  kind: ChaosKind,
  body: unknown,
  words: ChaosStatusWords,
): { body: unknown; changed: boolean } {
  let changed = false;
  const walk = (value: unknown, key: string | undefined): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item, undefined));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, walk(v, k)]));
    }
    if (kind === 'string-numbers' && typeof value === 'number') {
      changed = true;
      return String(value);
    }
    if (key !== undefined && words.fields.includes(key) && typeof value === 'string') {
      if (kind === 'unknown-status') {
        changed = true;
        return UNKNOWN_STATUS;
      }
      if (kind === 'regress' && Object.prototype.hasOwnProperty.call(words.regress, value)) {
        changed = true;
        return words.regress[value];
      }
    }
    return value;
  };
  const mutated = walk(body, undefined);
  return { body: changed ? mutated : body, changed };
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
