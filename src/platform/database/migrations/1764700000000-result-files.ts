import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * The kept copies of finished tasks' files: a download queue (pending, leased) that becomes the
 * record of each copy (stored, its size and retention). Portable Table API; times are epoch-ms bigints.
 */
export class ResultFiles1764700000000 implements MigrationInterface {
  name = 'ResultFiles1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'result_files',
        columns: [
          { name: 'id', type: 'varchar', length: '100', isPrimary: true },
          { name: 'task_id', type: 'varchar', length: '64' },
          { name: 'account_id', type: 'varchar', length: '64' },
          { name: 'slot', type: 'varchar', length: '16' },
          { name: 'upstream_url', type: 'text' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'next_attempt_at', type: 'bigint', isNullable: true },
          { name: 'lease_owner', type: 'varchar', length: '64', isNullable: true },
          { name: 'lease_until', type: 'bigint', isNullable: true },
          { name: 'storage_key', type: 'varchar', length: '255', isNullable: true },
          { name: 'size_bytes', type: 'bigint', isNullable: true },
          { name: 'content_type', type: 'varchar', length: '100', isNullable: true },
          { name: 'last_error', type: 'text', isNullable: true },
          { name: 'trace_context', type: 'varchar', length: '55', isNullable: true },
          { name: 'stored_at', type: 'bigint', isNullable: true },
          { name: 'expires_at', type: 'bigint', isNullable: true },
          { name: 'created_at', type: 'bigint' },
          { name: 'updated_at', type: 'bigint' },
        ],
        indices: [
          new TableIndex({ name: 'idx_result_files_task', columnNames: ['task_id'] }),
          new TableIndex({ name: 'idx_result_files_due', columnNames: ['next_attempt_at'] }),
          new TableIndex({ name: 'idx_result_files_expiry', columnNames: ['expires_at'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('result_files');
  }
}
