import { ValidateBy } from 'class-validator';

/**
 * Admin times: ISO 8601 (`2026-11-01`, `2026-11-01T10:00:00Z`, `...+01:00`, fractions) or
 * Unix seconds (`1793527200`). A date-time without a zone is UTC, never the server's local time.
 * Parsed by hand because `Date.parse` accepts impossible dates (Feb 30 rolls into March).
 */
const UNIX_SECONDS = /^\d{1,11}$/;
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** Epoch milliseconds, or null when the text is neither form. */
export function parseTimeParam(text: string): number | null {
  if (UNIX_SECONDS.test(text)) return Number(text) * 1000;
  const m = ISO_8601.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(
    Number,
  );
  const millis = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Day 31 of a 30-day month (or Feb 30) would roll over; the day must survive the round trip.
  if (new Date(local).getUTCDate() !== day) return null;
  const offset = zoneOffsetMs(m[8]);
  return offset === null ? null : local - offset;
}

/** A zone's offset from UTC, or null for one no clock shows (hours past 23, minutes past 59). */
function zoneOffsetMs(zone: string | undefined): number | null {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > 23 || minutes > 59) return null;
  return sign * (hours * 60 + minutes) * 60_000;
}

/**
 * A time in a JSON body (a key's `expires_at`): the same text forms, or Unix seconds as a whole
 * number. Epoch ms, or null when it is neither; a number beyond the text form's eleven digits (past
 * the year 5138) is refused like the text, never stored as a date no response could print.
 */
export function parseTimeValue(value: unknown): number | null {
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value >= 0 ? parseTimeParam(String(value)) : null;
  return typeof value === 'string' ? parseTimeParam(value) : null;
}

/** Checks a body field with `parseTimeValue`; the handler converts it the same way. */
export function IsTimeValue(): PropertyDecorator {
  return ValidateBy({
    name: 'isTimeValue',
    validator: {
      validate: (value: unknown) => parseTimeValue(value) !== null,
      defaultMessage: () => '$property must be an ISO 8601 time or Unix seconds',
    },
  });
}
