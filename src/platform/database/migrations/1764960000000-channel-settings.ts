import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Operators' run-time changes to upstream channels (enabled, weight), read by every instance at
 * start and on each change; a null column keeps the configured value. Keyed by the channel's id.
 */
export class ChannelSettings1764960000000 implements MigrationInterface {
  name = 'ChannelSettings1764960000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'channel_settings',
        columns: [
          { name: 'channel_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'enabled', type: 'boolean', isNullable: true },
          { name: 'weight', type: 'integer', isNullable: true },
          { name: 'updated_at', type: 'bigint' },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('channel_settings');
  }
}
