import type { ClassConstructor } from 'class-transformer';
import { FamilyId, ModelCatalogue } from '../../models/model-catalogue';
import type { BillableUsage } from '../billable-usage';
import type { PricingRule } from './pricing-rules';

/**
 * What billing needs from the families: the models, how each kind of billable usage is priced,
 * and the shape of each family's price entry. Filled from the family definitions at start.
 */
export abstract class PricingCatalogue extends ModelCatalogue {
  abstract pricingRule(kind: string): PricingRule<BillableUsage> | undefined;
  abstract priceEntryClass(family: FamilyId): ClassConstructor<object> | undefined;
}
