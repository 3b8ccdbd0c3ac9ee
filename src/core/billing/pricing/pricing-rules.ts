import { Family } from '../../models/catalogue';
import { BillableUsage } from '../billable-usage';
import { AxModelPrice, KlModelPrice, ModelPrice, VdModelPrice } from './price-table';
import { applyBasisPoints, multiply, wholeNumber } from './units';

/**
 * How each kind of billable usage turns into priced lines, as data: a per-second price chosen
 * by a tier, multipliers switched on by usage flags, flat surcharges per counted item.
 */

export type UsageKind = BillableUsage['kind'];
export type UsageOf<K extends UsageKind> = Extract<BillableUsage, { kind: K }>;
/** `[line name, amount in units]`; the lines of a charge add up to its amount. */
export type Line = [string, number];

export interface PricingRule<U> {
  /** The catalogue family whose price entries this usage is priced from. */
  readonly family: Family;
  /** Requested seconds for work billed per second; null for a flat-priced call. */
  requestedSeconds(usage: U): number | null;
  /** Lines for `seconds` billed seconds; `at` is the entry's path, for error messages. */
  lines(entry: ModelPrice, usage: U, seconds: number, at: string): Line[];
}

/**
 * A price read from the table. Missing (and no fallback) is a plain Error: an operator config
 * fault, not the client's.
 */
function priceAt(entry: object, keys: string[], at: string, fallback?: number): number {
  const path = [at, ...keys].join('.');
  let value: unknown = entry;
  for (const key of keys) {
    const holder = value as Record<string, unknown> | undefined;
    value = holder !== null && typeof holder === 'object' && Object.prototype.hasOwnProperty.call(holder, key) ? holder[key] : undefined;
  }
  if (value === undefined && fallback !== undefined) return fallback;
  if (value === undefined) throw new Error(`No price configured at ${path}.`);
  return wholeNumber(value, path);
}

const sum = (lines: Line[]) => lines.reduce((total, [, amount]) => total + amount, 0);

interface TimedSpec<U, E> {
  family: Family;
  /** Path inside the entry to the per-second price for this usage's tier. */
  perSecond: (usage: U) => [keyof E & string, string];
  /** Applied in order to the running subtotal of the per-second part. */
  multipliers: Array<{ line: string; field: keyof E & string; when: (usage: U) => boolean }>;
  /** Added after the multipliers: a reference costs the same whatever the audio or hour. */
  surcharges: Array<{ line: string; field: keyof E & string; count: (usage: U) => number }>;
}

function timed<U extends { durationSeconds: number }, E extends ModelPrice>(spec: TimedSpec<U, E>): PricingRule<U> {
  return {
    family: spec.family,
    requestedSeconds: (usage) => usage.durationSeconds,
    lines(entry, usage, seconds, at) {
      const lines: Line[] = [['base', multiply(priceAt(entry, spec.perSecond(usage), at), seconds, `${at} base`)]];
      for (const m of spec.multipliers.filter((x) => x.when(usage))) {
        const subtotal = sum(lines);
        lines.push([m.line, applyBasisPoints(subtotal, priceAt(entry, [m.field], at), `${at} ${m.line}`) - subtotal]);
      }
      for (const s of spec.surcharges) {
        const count = wholeNumber(s.count(usage), `usage ${s.line} count`);
        if (count > 0) lines.push([s.line, multiply(priceAt(entry, [s.field], at), count, `${at} ${s.line}`)]);
      }
      return lines;
    },
  };
}

function flat<U>(family: Family, line: string, path: (usage: U) => string[], fallback?: number): PricingRule<U> {
  return {
    family,
    requestedSeconds: () => null,
    lines: (entry, usage, _seconds, at) => [[line, priceAt(entry, path(usage), at, fallback)]],
  };
}

export const PRICING_RULES: { [K in UsageKind]: PricingRule<UsageOf<K>> } = {
  'ax-r2v': timed<UsageOf<'ax-r2v'>, AxModelPrice>({
    family: 'ax',
    perSecond: (u) => ['per_second', u.resolution],
    // `audio` is null on models without the switch and true by default: only an explicit false is cheaper.
    multipliers: [{ line: 'silent', field: 'silent_bp', when: (u) => u.audio === false }],
    surcharges: [
      { line: 'reference_images', field: 'per_reference_image', count: (u) => u.referenceImages },
      { line: 'reference_videos', field: 'per_reference_video', count: (u) => u.referenceVideos },
    ],
  }),
  'vd-r2v': timed<UsageOf<'vd-r2v'>, VdModelPrice>({
    family: 'vd',
    perSecond: (u) => ['per_second', u.resolution],
    multipliers: [
      { line: 'audio', field: 'audio_bp', when: (u) => u.audio },
      { line: 'off_peak', field: 'off_peak_bp', when: (u) => u.offPeak },
    ],
    surcharges: [{ line: 'reference_videos', field: 'per_reference_video', count: (u) => u.referenceVideos }],
  }),
  'kl-edit': timed<UsageOf<'kl-edit'>, KlModelPrice>({
    family: 'kl',
    perSecond: (u) => ['edit_per_second', u.mode],
    multipliers: [],
    surcharges: [],
  }),
  'kl-voice': flat<UsageOf<'kl-voice'>>('kl', 'voice', () => ['voice']),
  // Session operations are free unless the operator prices them.
  'kl-session-op': flat<UsageOf<'kl-session-op'>>('kl', 'session_op', (u) => ['session_ops', u.operation], 0),
};
