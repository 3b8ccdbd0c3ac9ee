import type { Request } from 'express';

/**
 * RFC 4180 CSV: CRLF line ends; a field holding a comma, quote, CR, LF or edge whitespace is
 * quoted, with inner quotes doubled. Objects are written as JSON, null/undefined as empty. A text
 * that a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a CR, and
 * is not a number) is written after a `'`: names come from clients, operators and an SSO issuer.
 */
export function toCsv(header: readonly string[], rows: readonly unknown[][]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV when `format=csv`, or when no format is given and the client prefers `text/csv`. */
export function wantsCsv(format: 'json' | 'csv' | undefined, req: Request): boolean {
  return format === 'csv' || (format === undefined && req.accepts(['application/json', 'text/csv']) === 'text/csv');
}
