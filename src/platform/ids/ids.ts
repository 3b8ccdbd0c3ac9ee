import { randomBytes } from 'crypto';
import { ulid } from 'ulid';

/**
 * Public IDs: a ULID (time-sortable, 80 random bits) behind a short type prefix, so an ID tells
 * what it names and cannot be guessed from a neighbour.
 */
export type IdKind = 'task' | 'grant' | 'acct' | 'key' | 'req' | 'sess' | 'voice' | 'evt' | 'msg' | 'worker' | 'hold' | 'led' | 'use';

export function newId(kind: IdKind): string {
  return `${kind}_${ulid().toLowerCase()}`;
}

/** A random URL-safe secret of `bytes` bytes of entropy. */
export function randomSecret(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
