import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * An `Idempotency-Key` is tied to its task in the creation transaction (issue 14): the record
 * names the task, so a retry after a crash is answered from the task record.
 */
export class IdempotencyTask1764400000000 implements MigrationInterface {
  name = 'IdempotencyTask1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn(
      'idempotency_records',
      new TableColumn({ name: 'task_id', type: 'varchar', length: '64', isNullable: true }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('idempotency_records', 'task_id');
  }
}
