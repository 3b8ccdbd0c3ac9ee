/**
 * Entity factories for unit specs: `accountFactory.build({ balance: 500 })` gives a whole, valid
 * entity instance with the overrides applied; every other field has a plain default. IDs count up
 * per factory, so two built rows never collide. Times default to `FIXED_NOW`, the `ManualClock`'s
 * start, so a spec on a `ManualClock` sees rows made "now".
 */
import { ManualClock } from '../../src/platform/time/clock';

export const FIXED_NOW = new ManualClock().nowMs();

export interface Factory<T> {
  build(overrides?: Partial<T>): T;
  buildList(count: number, overrides?: Partial<T>): T[];
}

export function defineFactory<T extends object>(entity: new () => T, defaults: (sequence: number) => T): Factory<T> {
  let sequence = 0;
  const build = (overrides: Partial<T> = {}): T => {
    sequence += 1;
    return Object.assign(new entity(), defaults(sequence), overrides);
  };
  return {
    build,
    buildList: (count, overrides) => Array.from({ length: count }, () => build(overrides)),
  };
}
