import { ClassConstructor, plainToInstance, Type } from 'class-transformer';
import {
  IsArray,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  Min,
  MinLength,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { readFileSync } from 'fs';
import { resolve } from 'path';
import { GatewayError } from '../../../platform/errors';
import {
  VALIDATION_ERROR_FIELDS,
  firstViolation,
  forbiddenKeyViolation,
} from '../../../platform/validation/validate-dto';
import { BP_ONE } from './units';
import type { PricingCatalogue } from './pricing-catalogue';
import type { ModelPrice } from './pricing-rules';

/**
 * The pricing table: one entry per catalogue model, integer units only.
 * The same DTO classes validate the shipped config file and an admin `PUT /admin/v1/prices` body.
 */

/** Caps keep price x seconds x multipliers far inside Number's safe integers (2^53). */
export const MAX_PRICE = 1_000_000_000;
/** x10 at most: a larger multiplier is almost certainly a typo. */
export const MAX_BASIS_POINTS = 10 * BP_ONE;
/** Used when `PRICES_FILE` is not set; relative to the working directory, as `npm start` runs. */
export const DEFAULT_PRICES_FILE = 'config/prices.json';

export function compose(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((d) => d(target, key));
}
/** An amount in price units: integer, 0..MAX_PRICE (floats and strings are rejected). */
export const Price = () => compose(IsInt(), Min(0), Max(MAX_PRICE));
/** A multiplier in basis points; the bounds fix its direction (a discount cannot raise the price). */
export const BasisPoints = (min: number, max: number) => compose(IsInt(), Min(min), Max(max));
export const Nested = (cls: () => ClassConstructor<object>) => compose(IsObject(), ValidateNested(), Type(cls));

/** The highest version a table may carry. */
export const MAX_PRICE_VERSION = 1_000_000_000;

/** The table's top level; `models` is checked entry by entry against its family's class. */
export class PriceTableDto {
  /**
   * Stamped on every charge, so a usage row says which prices produced it. A table file's version
   * is stored as it is, and each table sent later is numbered above the last: the cap, well inside
   * the 32-bit columns, leaves room for the versions after it.
   */
  @IsInt() @Min(1) @Max(MAX_PRICE_VERSION) version: number;
  /** Short name of the integer unit every amount is counted in (e.g. `millicredit`). */
  @IsString() @MinLength(1) unit: string;
  /** What one unit is worth; documentation for operators. */
  @IsString() @MinLength(1) currency_unit: string;
  @IsOptional() @IsArray() @IsString({ each: true }) notes?: string[];
  @IsObject() models: Record<string, unknown>;
}

export interface PriceTable extends Omit<PriceTableDto, 'models'> {
  models: Record<string, ModelPrice>;
}

export interface PriceTableViolation {
  param: string | null;
  message: string;
}

const VALIDATION = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  stopAtFirstError: true,
  validationError: VALIDATION_ERROR_FIELDS,
} as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

type Checked<T> = { value: T } | { violation: PriceTableViolation };

function validateAs<T extends object>(cls: ClassConstructor<T>, raw: unknown, path: string): Checked<T> {
  if (!isPlainObject(raw))
    return { violation: { param: path || null, message: `${path || 'The price table'} must be a JSON object.` } };
  const forbidden = forbiddenKeyViolation(raw, path);
  if (forbidden) return { violation: forbidden };
  const instance = plainToInstance(cls, raw, { enableImplicitConversion: false, exposeDefaultValues: false });
  const violation = firstViolation(validateSync(instance, VALIDATION), path);
  return violation ? { violation } : { value: instance };
}

/** The table, or the first fault with the field path it sits at (`models.vdq2.per_second.720p`). */
export function checkPriceTable(
  raw: unknown,
  catalogue: PricingCatalogue,
): { table: PriceTable } | { violation: PriceTableViolation } {
  const top = validateAs(PriceTableDto, raw, '');
  if ('violation' in top) return top;
  const models: Record<string, ModelPrice> = {};
  for (const [name, entry] of Object.entries(top.value.models)) {
    const path = `models.${name}`;
    const model = catalogue.find(name);
    const entryClass = model && catalogue.priceEntryClass(model.family);
    if (!model || !entryClass)
      return { violation: { param: path, message: `${path} is not a model of the catalogue.` } };
    const checked = validateAs(entryClass, entry, path);
    if ('violation' in checked) return checked;
    models[name] = checked.value;
  }
  // Every model the gateway serves must be billable, or a task could run free.
  const missing = catalogue.all().find((m) => !Object.prototype.hasOwnProperty.call(models, m.name));
  if (missing)
    return { violation: { param: `models.${missing.name}`, message: `models.${missing.name} has no price entry.` } };
  return { table: { ...top.value, models } };
}

/** For the admin API: a bad table is the caller's fault, a 400 naming the field. */
export function validatePriceTable(raw: unknown, catalogue: PricingCatalogue): PriceTable {
  const result = checkPriceTable(raw, catalogue);
  if ('violation' in result) throw GatewayError.invalid(result.violation.message, result.violation.param);
  return result.table;
}

/** For start-up: a bad file is an operator fault, a plain Error that stops the gateway. */
export function loadPriceTable(file: string, catalogue: PricingCatalogue): PriceTable {
  const path = resolve(file);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`Cannot read the price table ${path}: ${(e as Error).message}`);
  }
  const result = checkPriceTable(raw, catalogue);
  if ('violation' in result) throw new Error(`Invalid price table ${path}: ${result.violation.message}`);
  return result.table;
}
