import { GatewayError } from '../../platform/errors';

/** Where a page ended: the last row's creation time and ID (rows are ordered newest first, ID breaking ties). */
export interface CursorPosition {
  createdAt: number;
  id: string;
}

/** Opaque to callers: Base64URL of `<created_at ms>:<id>`, so a cursor survives rows added in between. */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.createdAt}:${position.id}`, 'utf8').toString('base64url');
}

/** The position a cursor names; a cursor not made by `encodeCursor` is a 400 naming `cursor`. */
export function decodeCursor(cursor: string): CursorPosition {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^(\d{1,16}):([\w.-]{1,100})$/.exec(text);
  if (!match) throw GatewayError.invalid('cursor is not one this API returned.', 'cursor');
  return { createdAt: Number(match[1]), id: match[2] };
}

/** One page of `limit` rows from `limit + 1` fetched: the extra row only says whether a next page exists. */
export function pageOf<T extends { createdAt: number; id: string }>(
  rows: T[],
  limit: number,
): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** A list answer: asks `fetch` for one row more than `limit` past the cursor, presents the page and its next cursor. */
export async function cursorPage<T extends { createdAt: number; id: string }, R>(
  paging: { cursor?: string; limit: number },
  fetch: (after: CursorPosition | undefined, take: number) => Promise<T[]>,
  present: (row: T) => R,
): Promise<{ items: R[]; next_cursor: string | null }> {
  const after = paging.cursor === undefined ? undefined : decodeCursor(paging.cursor);
  const page = pageOf(await fetch(after, paging.limit + 1), paging.limit);
  return { items: page.items.map(present), next_cursor: page.nextCursor };
}
