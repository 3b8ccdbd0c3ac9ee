import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('gives one text for JSON that differs only in member order and spacing, at every depth', () => {
    const a = JSON.parse('{"model":"vdq3","input":{"prompt":"x","media":[{"type":"a","url":"u"}]},"n":1}');
    const b = JSON.parse(
      '{ "n": 1.0, "input": { "media": [ { "url": "u", "type": "a" } ], "prompt": "x" }, "model": "vdq3" }',
    );
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"input":{"media":[{"type":"a","url":"u"}],"prompt":"x"},"model":"vdq3","n":1}');
  });

  it('keeps what changes the meaning: array order, values, types', () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
    expect(canonicalJson({ a: null })).not.toBe(canonicalJson({}));
  });

  it('writes scalars and names as JSON does, and leaves undefined members out', () => {
    expect(canonicalJson({ 'q"': 'line\nbreak', u: undefined })).toBe('{"q\\"":"line\\nbreak"}');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(true)).toBe('true');
  });
});
