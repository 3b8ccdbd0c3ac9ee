import {
  asArray,
  asNonEmptyString,
  asNumber,
  asPercent,
  asRecord,
  asString,
  parseJsonLeniently,
  payloadKind,
  withoutUndefined,
} from './lenient';

describe('lenient readers', () => {
  it('reads numbers sent as numbers or as strings', () => {
    expect(asNumber(5)).toBe(5);
    expect(asNumber('5.0')).toBe(5);
    expect(asNumber(' 10 ')).toBe(10);
    expect(asNumber('')).toBeUndefined();
    expect(asNumber('five')).toBeUndefined();
    expect(asNumber(Number.NaN)).toBeUndefined();
    expect(asNumber(null)).toBeUndefined();
    expect(asNumber({})).toBeUndefined();
  });

  it('reads percentages with or without a sign, clamped', () => {
    expect(asPercent('45%')).toBe(45);
    expect(asPercent(45)).toBe(45);
    expect(asPercent('150')).toBe(100);
    expect(asPercent('-3')).toBe(0);
    expect(asPercent('soon')).toBeUndefined();
  });

  it('reads strings and numeric IDs as text', () => {
    expect(asString('a')).toBe('a');
    expect(asString(12)).toBe('12');
    expect(asString(true)).toBeUndefined();
    expect(asNonEmptyString('  ')).toBeUndefined();
    expect(asNonEmptyString('x')).toBe('x');
  });

  it('turns wrong container types into empty ones instead of throwing', () => {
    expect(asRecord('text')).toEqual({});
    expect(asRecord([1])).toEqual({});
    expect(asRecord({ a: 1 })).toEqual({ a: 1 });
    expect(asArray({ length: 1 })).toEqual([]);
    expect(asArray([1])).toEqual([1]);
  });

  it('parses JSON bodies and keeps anything else as text', () => {
    expect(parseJsonLeniently('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonLeniently('<html>')).toBe('<html>');
    expect(parseJsonLeniently('')).toBeUndefined();
  });

  it('drops undefined fields only', () => {
    expect(withoutUndefined({ a: 1, b: undefined, c: null, d: '' })).toEqual({ a: 1, c: null, d: '' });
  });
});

describe('payloadKind', () => {
  it('names what arrived without its content', () => {
    expect(payloadKind(undefined)).toBe('empty');
    expect(payloadKind('<html>secret</html>')).toBe('text, not JSON (19 characters)');
    expect(payloadKind(null)).toBe('JSON null');
    expect(payloadKind([1])).toBe('a JSON array');
    expect(payloadKind({ a: 'secret' })).toBe('a JSON object');
    expect(payloadKind(5)).toBe('a JSON number');
  });
});
