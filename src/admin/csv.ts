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
