import { axTimestamp, isoTimestamp, unixSeconds } from './formats';

describe('wire time formats', () => {
  it('ax: YYYY-MM-DD HH:mm:ss.SSS in UTC', () => {
    expect(axTimestamp(Date.UTC(2026, 10, 24, 9, 5, 7, 42))).toBe('2026-11-24 09:05:07.042');
    expect(axTimestamp(0)).toBe('1970-01-01 00:00:00.000');
  });

  it('ax: a year past 9999 keeps its six digits and sign', () => {
    expect(axTimestamp(Date.UTC(12000, 0, 1))).toBe('+012000-01-01 00:00:00.000');
  });

  it('ax: no time, no field', () => {
    expect(axTimestamp(null)).toBeUndefined();
    expect(axTimestamp(undefined)).toBeUndefined();
  });

  it('vd and kl lists', () => {
    expect(isoTimestamp(Date.UTC(2026, 10, 24, 9, 5, 7, 42))).toBe('2026-11-24T09:05:07.042Z');
    expect(unixSeconds(1_764_000_000_999)).toBe(1_764_000_000);
  });
});
