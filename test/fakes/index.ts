/**
 * In-memory fakes for unit specs: each subclasses the real repository or service (on a DataSource
 * that is never connected), so the real constructors take them with no cast and a method a fake
 * does not override fails loudly. The clock is `ManualClock` (src/platform/time/clock.ts).
 */
export * from './accounts';
export * from './audit';
export * from './callback-outbox';
export * from './channel-settings';
export * from './in-memory-repository';
export * from './model-catalogue';
export * from './offline';
export * from './redis';
export * from './result-files';
export * from './task-engine';
export * from './transactions';
export * from './operator-sessions';
