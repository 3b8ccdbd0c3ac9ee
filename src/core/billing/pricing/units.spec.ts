import { applyBasisPoints, BP_ONE, multiply, wholeNumber, wholeSeconds } from './units';

describe('pricing units', () => {
  it('applies basis points exactly and rounds a remainder up, never down', () => {
    expect(applyBasisPoints(1000, 5000, 'x')).toBe(500);
    expect(applyBasisPoints(1001, 5000, 'x')).toBe(501); // 500.5
    expect(applyBasisPoints(1, 10001, 'x')).toBe(2); // 1.0001
    expect(applyBasisPoints(7, BP_ONE, 'x')).toBe(7);
    expect(applyBasisPoints(0, 12345, 'x')).toBe(0);
  });

  it('multiplies exactly and refuses a product beyond the safe integer range', () => {
    expect(multiply(1_000_000_000, 16, 'x')).toBe(16_000_000_000);
    expect(() => multiply(Number.MAX_SAFE_INTEGER, 2, 'big charge')).toThrow(/big charge/);
    expect(() => applyBasisPoints(Number.MAX_SAFE_INTEGER, 20000, 'big hold')).toThrow(/big hold/);
  });

  it('counts a started second as a whole one', () => {
    expect(wholeSeconds(4.2, 's')).toBe(5);
    expect(wholeSeconds(5, 's')).toBe(5);
    expect(wholeSeconds(0, 's')).toBe(0);
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, '5'])
      expect(() => wholeSeconds(bad, 'seconds')).toThrow(/seconds/);
  });

  it('accepts only non-negative safe integers as counts and prices', () => {
    expect(wholeNumber(3, 'n')).toBe(3);
    for (const bad of [1.5, -1, '3', null, undefined, 2 ** 60])
      expect(() => wholeNumber(bad, 'the count')).toThrow(/the count/);
  });
});
