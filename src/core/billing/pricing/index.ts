export * from './price-table';
export type { Charge } from './pricing';
export { billedSeconds, estimateCharge, finalCharge } from './pricing';
export { PricingCatalogue } from './pricing-catalogue';
export type { Line, PricingRule } from './pricing-rules';
export { flat, timed } from './pricing-rules';
export { BP_ONE } from './units';
