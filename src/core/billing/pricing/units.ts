/**
 * Integer money arithmetic for pricing. Every amount is a whole number of price units
 * (see `unit` in config/prices.json); nothing here ever holds a fractional amount.
 */

/**
 * The most an account may hold (its balance and its open holds): every amount stays an exact
 * integer in JSON, and the ledger's sums stay far inside 64 bits.
 */
export const MAX_ACCOUNT_FUNDS = Number.MAX_SAFE_INTEGER;

/** 10000 basis points = x1.0; multipliers are integers so no floating point touches money. */
export const BP_ONE = 10_000;

/** Fails loudly instead of silently losing precision above 2^53. */
function toSafe(value: bigint, what: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n))
    throw new Error(`Pricing overflow: ${what} = ${value} is beyond the safe integer range.`);
  return n;
}

/** A non-negative safe integer (a count, a price, seconds) or a thrown Error naming it. */
export function wholeNumber(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new Error(`${what} must be a non-negative integer, got ${String(value)}.`);
  }
  return value;
}

/** a x b, exactly (BigInt inside, so a large product is an error, never a rounded float). */
export function multiply(a: number, b: number, what: string): number {
  return toSafe(BigInt(a) * BigInt(b), what);
}

/** amount x bp / 10000, rounded up: a hold rounds towards covering the charge, never under it. */
export function applyBasisPoints(amount: number, bp: number, what: string): number {
  const product = BigInt(amount) * BigInt(bp);
  const one = BigInt(BP_ONE);
  return toSafe((product + one - 1n) / one, what);
}

/** Whole seconds to bill: a started second counts as a full one. */
export function wholeSeconds(seconds: unknown, what: string): number {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
    throw new Error(`${what} must be a finite number of seconds >= 0, got ${String(seconds)}.`);
  }
  return Math.ceil(seconds);
}
