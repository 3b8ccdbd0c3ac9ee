import type { SmokeRow } from './smoke-types';

const COLUMNS = ['family', 'step', 'field', 'seen', 'expected', 'verdict'] as const;

/** The rows as an aligned text table, then one summary line. */
export function formatSmokeReport(rows: readonly SmokeRow[]): string {
  const cells = rows.map((row) => COLUMNS.map((column) => row[column]));
  const widths = COLUMNS.map((column, i) => Math.max(column.length, ...cells.map((line) => line[i].length)));
  const line = (values: readonly string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const mismatches = rows.filter((row) => row.verdict === 'MISMATCH').length;
  const summary =
    mismatches === 0
      ? 'All fields as the gateway expects.'
      : `${mismatches} field(s) differ from what the gateway expects.`;
  return [line(COLUMNS), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line), '', summary].join('\n');
}

/** 0 when nothing differs, 1 otherwise. */
export function smokeExitCode(rows: readonly SmokeRow[]): number {
  return rows.some((row) => row.verdict === 'MISMATCH') ? 1 : 0;
}
