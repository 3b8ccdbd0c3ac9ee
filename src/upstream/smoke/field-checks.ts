import { asNumber } from '../http/lenient';
import type { UpstreamFamily } from '../upstream.types';
import type { SmokeRow, Verdict } from './smoke-types';

/** What the gateway expects of one field of a native payload. */
export interface FieldExpectation {
  /** Dotted path with `[n]` indexes, e.g. `data.task_result.voices[0].voice_id`. */
  readonly path: string;
  readonly expected: string;
  readonly test: (value: unknown) => boolean;
  /** Absent is only worth showing, not a mismatch. */
  readonly optional?: boolean;
}

type Shape = Omit<FieldExpectation, 'path'>;

export const nonEmptyString: Shape = {
  expected: 'non-empty string',
  test: (v) => typeof v === 'string' && v.trim() !== '',
};
export const anyString: Shape = { expected: 'string', test: (v) => typeof v === 'string' };
export const idLike: Shape = {
  expected: 'task ID (non-empty string or number)',
  test: (v) => (typeof v === 'string' && v.trim() !== '') || typeof v === 'number',
};
export const numberLike: Shape = { expected: 'number (or numeric string)', test: (v) => asNumber(v) !== undefined };
export const unixMs: Shape = {
  expected: 'Unix time in milliseconds',
  test: (v) => typeof v === 'number' && v > 1e12 && v < 1e14,
};
export const axTime: Shape = {
  expected: 'YYYY-MM-DD HH:mm:ss.SSS',
  test: (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/.test(v),
};
export const isoTime: Shape = {
  expected: 'ISO 8601 time ending in Z',
  test: (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(v),
};
export const httpUrl: Shape = {
  expected: 'http(s) URL',
  test: (v) => typeof v === 'string' && /^https?:\/\//i.test(v),
};
export const ownerLike: Shape = {
  expected: 'creator ID (string or number)',
  test: (v) => (typeof v === 'string' && v !== '') || typeof v === 'number',
};

export function oneOf(...words: unknown[]): Shape {
  return { expected: words.map((word) => JSON.stringify(word)).join(' or '), test: (v) => words.includes(v) };
}

export function field(path: string, shape: Shape, optional = false): FieldExpectation {
  return { path, ...shape, optional };
}

/** The value at a dotted path (`a.b[0].c`); undefined when any step is missing. */
export function valueAt(payload: unknown, path: string): unknown {
  let current: unknown = payload;
  for (const part of path.split('.')) {
    const match = /^([^[]+)((?:\[\d+\])*)$/.exec(part);
    if (!match) return undefined;
    current = isObject(current) ? current[match[1]] : undefined;
    for (const index of match[2].match(/\d+/g) ?? [])
      current = Array.isArray(current) ? current[Number(index)] : undefined;
  }
  return current;
}

export function checkFields(
  family: UpstreamFamily,
  step: string,
  payload: unknown,
  expectations: readonly FieldExpectation[],
): SmokeRow[] {
  return expectations.map((expectation) => {
    const value = valueAt(payload, expectation.path);
    const verdict: Verdict = expectation.test(value)
      ? 'ok'
      : value === undefined && expectation.optional
        ? 'info'
        : 'MISMATCH';
    return { family, step, field: expectation.path, seen: shown(value), expected: expectation.expected, verdict };
  });
}

/** A value as printed: JSON, URLs without their (signed) query string, long text cut. */
export function shown(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text =
    typeof value === 'string' ? JSON.stringify(withoutQuery(value)) : (JSON.stringify(value) ?? String(value));
  return text.length > 72 ? `${text.slice(0, 71)}…` : text;
}

function withoutQuery(text: string): string {
  return /^https?:\/\//i.test(text) ? text.replace(/[?#].*$/, '?…') : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
