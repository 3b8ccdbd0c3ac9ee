import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * kl custom voices the gateway has acted on (deletion state, owned by an account).
 * Portable Table API, so it runs on SQLite and PostgreSQL alike; times are epoch-ms bigints.
 */
export class KlVoices1764300000000 implements MigrationInterface {
  name = 'KlVoices1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'kl_voices',
        columns: [
          { name: 'id', type: 'varchar', length: '100', isPrimary: true },
          { name: 'account_id', type: 'varchar', length: '64' },
          { name: 'task_id', type: 'varchar', length: '64' },
          { name: 'voice_index', type: 'integer' },
          { name: 'upstream_voice_id', type: 'varchar', length: '200' },
          { name: 'delete_task_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'delete_state', type: 'varchar', length: '16', isNullable: true },
          { name: 'deleted_at', type: 'bigint', isNullable: true },
          { name: 'created_at', type: 'bigint' },
          { name: 'updated_at', type: 'bigint' },
        ],
        indices: [new TableIndex({ name: 'idx_kl_voices_account_task', columnNames: ['account_id', 'task_id'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('kl_voices');
  }
}
