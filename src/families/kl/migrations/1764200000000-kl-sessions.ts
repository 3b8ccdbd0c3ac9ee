import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableIndex } from 'typeorm';

const str = (name: string, length = 64): TableColumnOptions => ({ name, type: 'varchar', length: String(length) });
const big = (name: string): TableColumnOptions => ({ name, type: 'bigint' });
const int = (name: string, defaultValue?: number): TableColumnOptions => ({
  name,
  type: 'integer',
  default: defaultValue,
});

/**
 * kl editing sessions (the gateway's own record, `KlSessionEntity`). `version` is the
 * compare-and-set counter of `marks`. Portable Table API: SQLite and PostgreSQL alike.
 */
export class KlSessions1764200000000 implements MigrationInterface {
  name = 'KlSessions1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'kl_sessions',
        columns: [
          { name: 'id', type: 'varchar', length: '64', isPrimary: true },
          str('account_id'),
          str('channel_id', 100),
          str('upstream_session_id', 200),
          str('model', 100),
          { name: 'source', type: 'text' },
          { name: 'fps', type: 'real' },
          int('original_duration'),
          int('width'),
          int('height'),
          int('total_frame'),
          { name: 'normalized_video', type: 'text' },
          { name: 'marks', type: 'text' },
          int('version', 0),
          big('created_at'),
          big('updated_at'),
          big('expires_at'),
        ],
        indices: [new TableIndex({ name: 'idx_kl_sessions_account', columnNames: ['account_id'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('kl_sessions');
  }
}
