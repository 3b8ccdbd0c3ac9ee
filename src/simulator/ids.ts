import { randomBytes, randomInt, randomUUID } from 'node:crypto';

let counter = 0;

/**
 * A numeric string of exactly `digits` digits, unique within the process: random leading digits
 * followed by a rolling counter. Upstreams hand these out as opaque strings, never as numbers.
 */
export function numericId(digits: number): string {
  counter = (counter + 1) % 10_000;
  let head = String(randomInt(1, 10));
  while (head.length < digits - 4) head += String(randomInt(0, 10));
  return head + String(counter).padStart(4, '0');
}

export function uuid(): string {
  return randomUUID();
}

export function hexId(bytes = 16): string {
  return randomBytes(bytes).toString('hex');
}
