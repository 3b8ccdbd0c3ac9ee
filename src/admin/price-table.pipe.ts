import { Injectable, PipeTransform } from '@nestjs/common';
import { PriceTable, PricingCatalogue, validatePriceTable } from '../core/billing/pricing';

/** A `PUT /admin/v1/prices` body checked by the pricing rules (400 naming the field) before the service runs. */
@Injectable()
export class PriceTablePipe implements PipeTransform<unknown, PriceTable> {
  constructor(private readonly catalogue: PricingCatalogue) {}

  transform(body: unknown): PriceTable {
    return validatePriceTable(body, this.catalogue);
  }
}
