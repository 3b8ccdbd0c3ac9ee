/**
 * The most values one JSON body may hold: array elements and object members, nested ones
 * included. No request of the API comes near it (the price table, the largest, holds about a
 * hundred), and parsing this many costs milliseconds, where an object of millions of members
 * holds the event loop for seconds.
 */
export const MAX_BODY_VALUES = 10_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/**
 * Hand-written because: no library counts a JSON text's values without parsing it, and a streaming
 * parser would tokenise every byte of a Base64 body (see docs/hand-written.md).
 *
 * Counts the values of a UTF-8 JSON text piece by piece as it arrives, without parsing it: one per
 * opening bracket or brace and per comma outside strings (at least the number of elements and
 * members; one more per empty array or object). It stops counting once past `max`, so a body of
 * millions of values is refused after its first few kilobytes. Strings are skipped with
 * `Buffer.indexOf`, so Base64 costs next to nothing. Bytes of multi-byte UTF-8 characters never
 * look like the ASCII it counts. Text that is not JSON is counted all the same; the parser refuses
 * it next.
 */
export class JsonValueCounter {
  /** Values counted so far (at most `max + 1`). */
  count = 0;
  private inString = false;
  /** The piece ended on a backslash inside a string: the next piece starts with the escaped byte. */
  private escapePending = false;

  constructor(private readonly max: number) {}

  /** Counts the next piece of the text; false once it holds more than `max` values. */
  add(piece: Buffer): boolean {
    if (this.count > this.max) return false;
    const length = piece.length;
    let i = 0;
    if (this.escapePending) {
      this.escapePending = false;
      i = 1;
    }
    // The next quote and backslash at or after `i` (-1: none left in the piece), found once each.
    let quote = -2;
    let backslash = -2;
    while (i < length) {
      if (this.inString) {
        if (quote !== -1 && quote < i) quote = piece.indexOf(QUOTE, i);
        if (backslash !== -1 && backslash < i) backslash = piece.indexOf(BACKSLASH, i);
        if (backslash !== -1 && (quote === -1 || backslash < quote)) {
          i = backslash + 2;
          if (i > length) this.escapePending = true;
        } else if (quote === -1) {
          return true;
        } else {
          this.inString = false;
          i = quote + 1;
        }
        continue;
      }
      const c = piece[i++];
      if (c === QUOTE) this.inString = true;
      else if (c === COMMA || c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (++this.count > this.max) return false;
      }
    }
    return true;
  }
}

/** How many values a whole JSON text holds, counted up to `max + 1` (see JsonValueCounter). */
export function countJsonValues(text: string | Buffer, max: number): number {
  const counter = new JsonValueCounter(max);
  counter.add(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
  return counter.count;
}
