import { UsageRecordEntity } from '../core/billing/entities/usage-record.entity';
import { UsageRowResponse } from './admin.responses';
import { toCsv } from './csv';

/** The columns of a usage row, in the order of the CSV export. */
export const USAGE_COLUMNS = [
  'id',
  'task_id',
  'account_id',
  'model',
  'action',
  'amount',
  'price_version',
  'usage',
  'created_at',
] as const;
type UsageColumn = (typeof USAGE_COLUMNS)[number];

export function presentUsageRow(row: UsageRecordEntity): UsageRowResponse & Record<UsageColumn, unknown> {
  return {
    id: row.id,
    task_id: row.taskId,
    account_id: row.accountId,
    model: row.model,
    action: row.action,
    amount: row.amount,
    price_version: row.priceVersion,
    usage: row.usage,
    created_at: new Date(row.createdAt).toISOString(),
  };
}

/** The same rows as the JSON answer, one line each under a header line; `usage` as JSON text. */
export function usageCsv(rows: UsageRecordEntity[]): string {
  return toCsv(
    USAGE_COLUMNS,
    rows.map(presentUsageRow).map((row) => USAGE_COLUMNS.map((column) => row[column])),
  );
}
