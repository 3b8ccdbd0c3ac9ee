import fc from 'fast-check';
import { JsonValueCounter, countJsonValues } from './json-values';

/** Elements and members of a parsed value, nested ones included, and its empty arrays and objects. */
function census(value: unknown): { values: number; empty: number } {
  if (value === null || typeof value !== 'object') return { values: 0, empty: 0 };
  const children = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
  const own = { values: children.length, empty: children.length === 0 ? 1 : 0 };
  return children.map(census).reduce((a, b) => ({ values: a.values + b.values, empty: a.empty + b.empty }), own);
}

/** Splits `bytes` at the given offsets (any order, any repeats). */
function pieces(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  return [...at, bytes.length].map((end, i) => bytes.subarray(i === 0 ? 0 : at[i - 1], end));
}

describe('JsonValueCounter', () => {
  it('counts every element and member, plus one per empty array or object, however the text is cut', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), fc.array(fc.nat(), { maxLength: 12 }), (value, pretty, cuts) => {
        const bytes = Buffer.from(JSON.stringify(value, null, pretty ? 2 : undefined));
        const counter = new JsonValueCounter(Number.MAX_SAFE_INTEGER);
        for (const piece of pieces(bytes, cuts)) expect(counter.add(piece)).toBe(true);
        const { values, empty } = census(value);
        expect(counter.count).toBe(values + empty);
      }),
      { numRuns: 500 },
    );
  });

  it('skips commas, brackets and escaped quotes inside strings, also when an escape is cut in two', () => {
    const text = '{"a,[{":"x\\",{[,\\\\","b":["\\\\\\"",1]}';
    expect(JSON.parse(text)).toEqual({ 'a,[{': 'x",{[,\\', b: ['\\"', 1] });
    expect(countJsonValues(text, 100)).toBe(4);
    const bytes = Buffer.from(text);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const counter = new JsonValueCounter(100);
      counter.add(bytes.subarray(0, cut));
      counter.add(bytes.subarray(cut));
      expect(counter.count).toBe(4);
    }
    expect(countJsonValues('"[,,,]"', 100)).toBe(0);
  });

  it('stops counting one past the limit, and stays refused', () => {
    const many = Buffer.from(`[${new Array(1_000_000).fill('0').join(',')}]`);
    const counter = new JsonValueCounter(10);
    expect(counter.add(many)).toBe(false);
    expect(counter.count).toBe(11);
    expect(counter.add(Buffer.from('[]'))).toBe(false);
    expect(countJsonValues(many, 2_000_000)).toBe(1_000_000);
  });

  it('counts an unterminated string as the end of the text', () => {
    expect(countJsonValues('[1,2,"3,4,5', 100)).toBe(3);
  });
});
