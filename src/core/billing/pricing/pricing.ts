import { findModel } from '../../models/catalogue';
import { BillableUsage, TaskOutcome } from '../billable-usage';
import { PriceTable } from './price-table';
import { Line, PRICING_RULES, PricingRule } from './pricing-rules';
import { wholeSeconds } from './units';

/** An amount in the table's integer unit, the price version that produced it, and its lines. */
export interface Charge {
  /** Integer >= 0, in the table's `unit`. */
  amount: number;
  priceVersion: number;
  /** Named lines (`base`, `audio`, `off_peak`, `silent`, `reference_images`, ...) that sum to `amount`; discounts are negative. */
  breakdown: Record<string, number>;
}

function ruleFor(table: PriceTable, modelName: string, usage: BillableUsage): { rule: PricingRule<BillableUsage>; at: string } {
  const at = `models.${modelName}`;
  if (!Object.prototype.hasOwnProperty.call(table.models, modelName)) throw new Error(`No price configured at ${at} (price version ${table.version}).`);
  const rule = PRICING_RULES[usage.kind] as PricingRule<BillableUsage>;
  const family = findModel(modelName)?.family;
  // A usage priced against another family's entry would read the wrong fields: a wiring fault.
  if (family !== rule.family) throw new Error(`Usage '${usage.kind}' cannot be priced for model '${modelName}' (family ${family ?? 'unknown'}).`);
  return { rule, at };
}

function charge(table: PriceTable, modelName: string, usage: BillableUsage, seconds: number): Charge {
  const { rule, at } = ruleFor(table, modelName, usage);
  const lines: Line[] = rule.lines(table.models[modelName], usage, seconds, at);
  const amount = lines.reduce((total, [, value]) => total + value, 0);
  return { amount, priceVersion: table.version, breakdown: Object.fromEntries(lines) };
}

function requestedSeconds(usage: BillableUsage): number {
  const requested = (PRICING_RULES[usage.kind] as PricingRule<BillableUsage>).requestedSeconds(usage);
  return requested === null ? 0 : wholeSeconds(requested, 'usage.durationSeconds');
}

/** What is held when a task is created: the requested work at current prices, rounded up. */
export function estimateCharge(table: PriceTable, modelName: string, usage: BillableUsage): Charge {
  return charge(table, modelName, usage, requestedSeconds(usage));
}

/**
 * The gateway's own rule for a finished task: bill output seconds (started seconds count whole),
 * never native usage that counts input seconds too, never more than the requested duration,
 * and never more than the estimate, so a settlement always fits inside its hold.
 */
export function finalCharge(table: PriceTable, modelName: string, usage: BillableUsage, outcome: TaskOutcome): Charge {
  const estimate = estimateCharge(table, modelName, usage);
  const requested = requestedSeconds(usage);
  const reported = outcome.outputSeconds;
  // A missing, zero, negative or non-finite figure is not a usable report: bill the request.
  const output = typeof reported === 'number' && Number.isFinite(reported) && reported > 0 ? wholeSeconds(reported, 'outcome.outputSeconds') : requested;
  const final = charge(table, modelName, usage, Math.min(output, requested));
  return final.amount > estimate.amount ? estimate : final;
}
