/**
 * Lenient readers for upstream payloads. Upstreams send numbers as strings (`"5.0"`), drop fields
 * and add new ones; none of these may throw, so a strange payload becomes missing data, never a crash.
 */

export type LooseRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is LooseRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it is a plain object, otherwise an empty one. */
export function asRecord(value: unknown): LooseRecord {
  return isRecord(value) ? value : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Strings as they are; finite numbers as text (IDs sometimes arrive as numbers); anything else undefined. */
export function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Like `asString`, but an empty or blank string counts as absent. */
export function asNonEmptyString(value: unknown): string | undefined {
  const text = asString(value);
  return text !== undefined && text.trim() !== '' ? text : undefined;
}

/** Finite numbers, and strings holding one (`"5"`, `" 5.0 "`); anything else undefined. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = Number(value.trim());
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** A percentage as a number or text (`45`, `"45"`, `"45%"`), clamped to 0..100. */
export function asPercent(value: unknown): number | undefined {
  const text = typeof value === 'string' ? value.trim().replace(/%$/, '') : value;
  const parsed = asNumber(text);
  return parsed === undefined ? undefined : Math.min(100, Math.max(0, parsed));
}

/** Parses a JSON body; an empty body is undefined and non-JSON text is kept as the text itself. */
export function parseJsonLeniently(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  if (body.trim() === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** A copy without the fields whose value is undefined, so snapshots only carry what the upstream said. */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/** What kind of payload arrived, for a log line that must not carry the payload itself. */
export function payloadKind(value: unknown): string {
  if (value === undefined) return 'empty';
  if (typeof value === 'string') return `text, not JSON (${value.length} characters)`;
  if (value === null) return 'JSON null';
  if (Array.isArray(value)) return 'a JSON array';
  return typeof value === 'object' ? 'a JSON object' : `a JSON ${typeof value}`;
}
