import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/** Console sign-ins through single sign-on: a hashed cookie token, the person, their role, an expiry. */
export class OperatorSessions1765200000000 implements MigrationInterface {
  name = 'OperatorSessions1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'operator_sessions',
        columns: [
          { name: 'token_hash', type: 'varchar', length: '64', isPrimary: true },
          { name: 'operator_id', type: 'varchar', length: '64' },
          { name: 'operator_name', type: 'varchar', length: '200' },
          { name: 'role', type: 'varchar', length: '16' },
          { name: 'csrf_token', type: 'varchar', length: '64' },
          { name: 'created_at', type: 'bigint' },
          { name: 'expires_at', type: 'bigint' },
        ],
        indices: [new TableIndex({ name: 'idx_operator_sessions_expires_at', columnNames: ['expires_at'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('operator_sessions');
  }
}
