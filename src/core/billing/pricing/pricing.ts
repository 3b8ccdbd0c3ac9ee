import { BillableUsage, TaskOutcome } from '../billable-usage';
import { PriceTable } from './price-table';
import type { PricingCatalogue } from './pricing-catalogue';
import { Line, PricingRule } from './pricing-rules';
import { wholeSeconds } from './units';

/** An amount in the table's integer unit, the price version that produced it, and its lines. */
export interface Charge {
  /** Integer >= 0, in the table's `unit`. */
  amount: number;
  priceVersion: number;
  /**
   * Named lines (`base`, `audio`, `off_peak`, `silent`, `reference_images`, ...) that sum to `amount`; discounts are
   * negative.
   */
  breakdown: Record<string, number>;
}

function ruleFor(
  catalogue: PricingCatalogue,
  table: PriceTable,
  modelName: string,
  usage: BillableUsage,
): { rule: PricingRule<BillableUsage>; at: string } {
  const at = `models.${modelName}`;
  if (!Object.prototype.hasOwnProperty.call(table.models, modelName))
    throw new Error(`No price configured at ${at} (price version ${table.version}).`);
  const rule = catalogue.pricingRule(usage.kind);
  if (!rule) throw new Error(`No pricing rule for usage '${usage.kind}'.`);
  const family = catalogue.find(modelName)?.family;
  // A usage priced against another family's entry would read the wrong fields: a wiring fault.
  if (family !== rule.family)
    throw new Error(`Usage '${usage.kind}' cannot be priced for model '${modelName}' (family ${family ?? 'unknown'}).`);
  return { rule, at };
}

function charge(
  catalogue: PricingCatalogue,
  table: PriceTable,
  modelName: string,
  usage: BillableUsage,
  seconds: number,
): Charge {
  const { rule, at } = ruleFor(catalogue, table, modelName, usage);
  const lines: Line[] = rule.lines(table.models[modelName], usage, seconds, at);
  const amount = lines.reduce((total, [, value]) => total + value, 0);
  return { amount, priceVersion: table.version, breakdown: Object.fromEntries(lines) };
}

function requestedSeconds(catalogue: PricingCatalogue, usage: BillableUsage): number {
  const requested = catalogue.pricingRule(usage.kind)?.requestedSeconds(usage) ?? null;
  return requested === null ? 0 : wholeSeconds(requested, 'usage.durationSeconds');
}

/** What is held when a task is created: the requested work at current prices, rounded up. */
export function estimateCharge(
  catalogue: PricingCatalogue,
  table: PriceTable,
  modelName: string,
  usage: BillableUsage,
): Charge {
  return charge(catalogue, table, modelName, usage, requestedSeconds(catalogue, usage));
}

/**
 * The seconds a finished task is billed for: output seconds (started seconds count whole), at most the requested ones.
 */
export function billedSeconds(
  catalogue: PricingCatalogue,
  usage: BillableUsage,
  outcome: TaskOutcome,
): { seconds: number; reported: boolean } {
  const requested = requestedSeconds(catalogue, usage);
  const reported = outcome.outputSeconds;
  // A missing, zero, negative or non-finite figure is not a usable report: bill the request.
  const usable = typeof reported === 'number' && Number.isFinite(reported) && reported > 0;
  const output = usable ? wholeSeconds(reported as number, 'outcome.outputSeconds') : requested;
  return { seconds: Math.min(output, requested), reported: usable };
}

/**
 * The gateway's own rule for a finished task: bill output seconds (started seconds count whole),
 * never native usage that counts input seconds too, never more than the requested duration,
 * and never more than the estimate, so a settlement always fits inside its hold.
 */
export function finalCharge(
  catalogue: PricingCatalogue,
  table: PriceTable,
  modelName: string,
  usage: BillableUsage,
  outcome: TaskOutcome,
): Charge {
  const estimate = estimateCharge(catalogue, table, modelName, usage);
  const final = charge(catalogue, table, modelName, usage, billedSeconds(catalogue, usage, outcome).seconds);
  return final.amount > estimate.amount ? estimate : final;
}
