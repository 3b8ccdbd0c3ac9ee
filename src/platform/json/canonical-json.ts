/**
 * JSON text that depends only on a value's meaning: object members sorted by name (at every
 * depth), arrays in their order, no spaces. Two parses of JSON that differ only in member order or
 * whitespace give the same text. For values read from JSON (no cycles, no `undefined` members
 * left after a parse; an `undefined` member is left out, as `JSON.stringify` does).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .filter((name) => record[name] !== undefined)
    .sort()
    .map((name) => `${JSON.stringify(name)}:${canonicalJson(record[name])}`);
  return `{${members.join(',')}}`;
}
