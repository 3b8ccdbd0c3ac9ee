import { Injectable, PipeTransform } from '@nestjs/common';
import { PriceTable, PricingCatalogue, validatePriceTable } from '../core/billing/pricing';

/**
 * A `PUT /admin/v1/prices` body checked by the pricing rules (400 naming the field) before the service runs.
 * The server numbers every new table (always the next version), so `version` may be left out.
 */
@Injectable()
export class PriceTablePipe implements PipeTransform<unknown, PriceTable> {
  constructor(private readonly catalogue: PricingCatalogue) {}

  transform(body: unknown): PriceTable {
    const numbered = isObject(body) && body.version === undefined ? { ...body, version: 1 } : body;
    return validatePriceTable(numbered, this.catalogue);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
