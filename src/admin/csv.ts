import type { Request } from 'express';

/**
 * RFC 4180 CSV: CRLF line ends; a field holding a comma, quote, CR, LF or edge whitespace is
 * quoted, with inner quotes doubled. Objects are written as JSON, null/undefined as empty.
 */
export function toCsv(header: readonly string[], rows: readonly unknown[][]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV when `format=csv`, or when no format is given and the client prefers `text/csv`. */
export function wantsCsv(format: 'json' | 'csv' | undefined, req: Request): boolean {
  return format === 'csv' || (format === undefined && req.accepts(['application/json', 'text/csv']) === 'text/csv');
}
