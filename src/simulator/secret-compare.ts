import { timingSafeEqual } from 'node:crypto';

/** Constant-time comparison, so the simulator's auth behaves like a careful real service. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
