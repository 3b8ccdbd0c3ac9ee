/** One factory per entity of `src/entities.ts` (and the families' own). */
export * from './factory';
export * from './accounts';
export * from './billing';
export * from './kl';
export * from './operators';
export * from './results';
export * from './tasks';
