import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableIndex } from 'typeorm';

// Written with TypeORM's portable Table API so one migration runs on SQLite and PostgreSQL.
const id = (name = 'id'): TableColumnOptions => ({ name, type: 'varchar', length: '64', isPrimary: true });
const str = (name: string, length = 64, isNullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable,
});
const text = (name: string, isNullable = true): TableColumnOptions => ({ name, type: 'text', isNullable });
const big = (name: string, isNullable = false, defaultValue?: number): TableColumnOptions => ({
  name,
  type: 'bigint',
  isNullable,
  default: defaultValue,
});
const int = (name: string, isNullable = false, defaultValue?: number): TableColumnOptions => ({
  name,
  type: 'integer',
  isNullable,
  default: defaultValue,
});
const bool = (name: string, defaultValue: boolean): TableColumnOptions => ({
  name,
  type: 'boolean',
  default: defaultValue,
});

export class InitialSchema1763900000000 implements MigrationInterface {
  name = 'InitialSchema1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'accounts',
        columns: [
          id(),
          str('name', 200),
          big('balance', false, 0),
          big('held', false, 0),
          bool('disabled', false),
          int('rate_limit_rpm', true),
          int('max_concurrent_tasks', true),
          int('in_flight_tasks', false, 0),
          str('webhook_secret', 100),
          big('created_at'),
          big('updated_at'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          id(),
          str('account_id'),
          str('name', 200, true),
          str('prefix', 32),
          str('key_hash', 64),
          text('models'),
          big('created_at'),
          big('last_used_at', true),
          big('expires_at', true),
          big('revoked_at', true),
        ],
        indices: [
          new TableIndex({ name: 'idx_api_keys_account', columnNames: ['account_id'] }),
          new TableIndex({ name: 'uq_api_keys_hash', columnNames: ['key_hash'], isUnique: true }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'model_grants',
        columns: [id(), str('account_id'), str('model', 100), text('capabilities', false), big('created_at')],
        indices: [
          new TableIndex({
            name: 'uq_model_grants_account_model',
            columnNames: ['account_id', 'model'],
            isUnique: true,
          }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'tasks',
        columns: [
          id(),
          str('account_id'),
          str('api_key_id', 64, true),
          str('family', 8),
          str('action', 32),
          str('model', 100),
          str('channel_id', 100),
          str('upstream_task_id', 200, true),
          str('phase', 16),
          str('native_status', 32),
          str('outer_status', 16),
          int('progress', false, 0),
          str('failure_code', 100, true),
          text('failure_reason'),
          text('request_snapshot', false),
          text('creation_echo'),
          text('result'),
          text('last_native'),
          text('native_usage'),
          str('external_task_id', 255, true),
          text('callback_url'),
          str('callback_token', 64, true),
          text('billable_usage', false),
          str('billing_state', 16),
          big('estimated_charge', false, 0),
          big('final_charge', true),
          int('price_version', true),
          big('created_at'),
          big('updated_at'),
          big('finished_at', true),
          big('sync_due_at', true),
          int('sync_attempts', false, 0),
          str('lease_owner', 64, true),
          big('lease_until', true),
          big('deadline_at'),
        ],
        indices: [
          new TableIndex({
            name: 'idx_tasks_account_action_created',
            columnNames: ['account_id', 'action', 'created_at'],
          }),
          new TableIndex({
            name: 'uq_tasks_account_external',
            columnNames: ['account_id', 'external_task_id'],
            isUnique: true,
          }),
          new TableIndex({ name: 'idx_tasks_upstream', columnNames: ['upstream_task_id'] }),
          new TableIndex({ name: 'idx_tasks_sync_due', columnNames: ['sync_due_at'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'idempotency_records',
        columns: [
          { ...str('account_id'), isPrimary: true },
          { ...str('idem_key', 255), isPrimary: true },
          str('request_hash', 64),
          str('state', 16),
          int('response_status', true),
          text('response_body'),
          text('response_headers'),
          big('created_at'),
          big('expires_at'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'callback_deliveries',
        columns: [
          id(),
          str('task_id'),
          str('account_id'),
          text('url', false),
          text('body', false),
          str('status', 16),
          int('attempts', false, 0),
          big('next_attempt_at', true),
          text('last_error'),
          big('created_at'),
          big('updated_at'),
        ],
        indices: [new TableIndex({ name: 'idx_callbacks_due', columnNames: ['next_attempt_at'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'ledger_entries',
        columns: [
          id(),
          str('account_id'),
          str('kind', 16),
          big('amount'),
          str('task_id', 64, true),
          text('reason'),
          int('price_version', true),
          big('created_at'),
        ],
        indices: [
          new TableIndex({ name: 'idx_ledger_account', columnNames: ['account_id', 'created_at'] }),
          new TableIndex({ name: 'uq_ledger_task_kind', columnNames: ['task_id', 'kind'], isUnique: true }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'usage_records',
        columns: [
          id(),
          str('task_id'),
          str('account_id'),
          str('model', 100),
          str('action', 32),
          big('amount'),
          int('price_version'),
          text('usage', false),
          big('created_at'),
        ],
        indices: [
          new TableIndex({ name: 'uq_usage_task', columnNames: ['task_id'], isUnique: true }),
          new TableIndex({ name: 'idx_usage_account_created', columnNames: ['account_id', 'created_at'] }),
          new TableIndex({ name: 'idx_usage_created', columnNames: ['created_at'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'price_versions',
        columns: [{ name: 'version', type: 'integer', isPrimary: true }, text('table', false), big('created_at')],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'price_versions',
      'usage_records',
      'ledger_entries',
      'callback_deliveries',
      'idempotency_records',
      'tasks',
      'model_grants',
      'api_keys',
      'accounts',
    ]) {
      await q.dropTable(table);
    }
  }
}
