import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Indexes for the billing reconciliation sweep and the operators' usage log:
 * - tasks(billing_state, finished_at): ended tasks still holding money, oldest first, without
 *   scanning the history of settled ones;
 * - tasks(account_id, phase): an account's open tasks, to recount its in-flight counter;
 * - usage_records(model, created_at): the usage log filtered by model, newest first.
 * Portable Table API, so it runs on SQLite and PostgreSQL alike.
 */
export class ReconciliationIndexes1764000000000 implements MigrationInterface {
  name = 'ReconciliationIndexes1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'tasks',
      new TableIndex({ name: 'idx_tasks_billing_finished', columnNames: ['billing_state', 'finished_at'] }),
    );
    await q.createIndex(
      'tasks',
      new TableIndex({ name: 'idx_tasks_account_phase', columnNames: ['account_id', 'phase'] }),
    );
    await q.createIndex(
      'usage_records',
      new TableIndex({ name: 'idx_usage_model_created', columnNames: ['model', 'created_at'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('usage_records', 'idx_usage_model_created');
    await q.dropIndex('tasks', 'idx_tasks_account_phase');
    await q.dropIndex('tasks', 'idx_tasks_billing_finished');
  }
}
