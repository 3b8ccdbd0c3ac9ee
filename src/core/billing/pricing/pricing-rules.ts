import { FamilyId } from '../../models/model-catalogue';
import { applyBasisPoints, multiply, wholeNumber } from './units';

/**
 * How a kind of billable usage turns into priced lines, as data: a per-second price chosen by a
 * tier, multipliers switched on by usage flags, flat surcharges per counted item. Families build
 * their rules with `timed` and `flat`; the engine reads them, never names them.
 */
/** A model's price entry: its shape is its family's (`FamilyDefinition.pricing.entry`). */
export type ModelPrice = object;

/** `[line name, amount in units]`; the lines of a charge add up to its amount. */
export type Line = [string, number];

export interface PricingRule<U> {
  /** The catalogue family whose price entries this usage is priced from. */
  readonly family: FamilyId;
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
    value =
      holder !== null && typeof holder === 'object' && Object.prototype.hasOwnProperty.call(holder, key)
        ? holder[key]
        : undefined;
  }
  if (value === undefined && fallback !== undefined) return fallback;
  if (value === undefined) throw new Error(`No price configured at ${path}.`);
  return wholeNumber(value, path);
}

const sum = (lines: Line[]) => lines.reduce((total, [, amount]) => total + amount, 0);

interface TimedSpec<U, E> {
  family: FamilyId;
  /** Path inside the entry to the per-second price for this usage's tier. */
  perSecond: (usage: U) => [keyof E & string, string];
  /** Applied in order to the running subtotal of the per-second part. */
  multipliers: Array<{ line: string; field: keyof E & string; when: (usage: U) => boolean }>;
  /** Added after the multipliers: a reference costs the same whatever the audio or hour. */
  surcharges: Array<{ line: string; field: keyof E & string; count: (usage: U) => number }>;
}

export function timed<U extends { durationSeconds: number }, E extends ModelPrice>(
  spec: TimedSpec<U, E>,
): PricingRule<U> {
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

export function flat<U>(
  family: FamilyId,
  line: string,
  path: (usage: U) => string[],
  fallback?: number,
): PricingRule<U> {
  return {
    family,
    requestedSeconds: () => null,
    lines: (entry, usage, _seconds, at) => [[line, priceAt(entry, path(usage), at, fallback)]],
  };
}
