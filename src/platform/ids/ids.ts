import { randomBytes } from 'crypto';
import { factory } from 'ulid';

/**
 * Public IDs: a ULID (time-sortable, 80 random bits) behind a short type prefix, so an ID tells
 * what it names and cannot be guessed from a neighbour.
 */
export type IdKind =
  | 'task'
  | 'grant'
  | 'acct'
  | 'key'
  | 'req'
  | 'sess'
  | 'voice'
  | 'evt'
  | 'msg'
  | 'worker'
  | 'hold'
  | 'led'
  | 'use'
  | 'op'
  | 'aud';

/**
 * ULID's default source asks the OS for one random byte per character; this draws them from a
 * pooled crypto buffer instead. One byte / 256 maps evenly onto ULID's 32 symbols.
 */
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let offset = 0;
function pooledRandom(): number {
  if (offset >= POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  return pool[offset++] / 256;
}
const ulid = factory(pooledRandom);

export function newId(kind: IdKind): string {
  return `${idPrefix(kind)}${ulid().toLowerCase()}`;
}

/** What every ID of `kind` starts with (`task_`). */
export function idPrefix(kind: IdKind): string {
  return `${kind}_`;
}

/** A random URL-safe secret of `bytes` bytes of entropy. */
export function randomSecret(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
