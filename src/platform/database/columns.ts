import { ColumnOptions, ValueTransformer } from 'typeorm';

/**
 * Column helpers that behave the same on SQLite and PostgreSQL. Times are Unix milliseconds in
 * bigint columns (no timezone or driver date quirks); PostgreSQL returns bigint as a string, so
 * it is parsed back to a number.
 */
const bigintAsNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? value : Number(value)),
};

const jsonText: ValueTransformer = {
  to: (value: unknown) => (value === undefined ? undefined : value === null ? null : JSON.stringify(value)),
  from: (value: string | null) => (value === null || value === undefined ? value : JSON.parse(value)),
};

export function BigIntColumnOptions(options: ColumnOptions = {}): ColumnOptions {
  return { type: 'bigint', transformer: bigintAsNumber, ...options };
}

/** JSON kept as text: portable, and never queried into. */
export function JsonColumnOptions(options: ColumnOptions = {}): ColumnOptions {
  return { type: 'text', transformer: jsonText, ...options };
}
