export * from './price-table';
export type { Charge } from './pricing';
export { estimateCharge, finalCharge } from './pricing';
export { BP_ONE } from './units';
