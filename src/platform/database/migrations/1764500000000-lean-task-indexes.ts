import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every create writes a task row and each of its index entries to the WAL (a 4 KB page each), so
 * an index the row does not belong in is a cost on the hot path:
 * - `idx_tasks_upstream` is read by no query: dropped.
 * - The rest hold only the rows their queries look for (partial indexes; each query's WHERE
 *   implies the index's, on SQLite and PostgreSQL alike): ended tasks still holding money for the
 *   reconciliation sweep, tasks with an `external_task_id` (still unique per account), open tasks
 *   for the sync worker's due scan and for an account's open-task count. A new task is no longer
 *   written into the first two, and ended tasks leave the last two instead of piling up in them.
 */
export class LeanTaskIndexes1764500000000 implements MigrationInterface {
  name = 'LeanTaskIndexes1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "idx_tasks_upstream"`);
    await replace(
      q,
      'idx_tasks_billing_finished',
      `CREATE INDEX "idx_tasks_billing_finished" ON "tasks" ("billing_state", "finished_at") WHERE "billing_state" = 'held' AND "finished_at" IS NOT NULL`,
    );
    await replace(
      q,
      'uq_tasks_account_external',
      `CREATE UNIQUE INDEX "uq_tasks_account_external" ON "tasks" ("account_id", "external_task_id") WHERE "external_task_id" IS NOT NULL`,
    );
    await replace(
      q,
      'idx_tasks_sync_due',
      `CREATE INDEX "idx_tasks_sync_due" ON "tasks" ("sync_due_at") WHERE "sync_due_at" IS NOT NULL`,
    );
    await replace(
      q,
      'idx_tasks_account_phase',
      `CREATE INDEX "idx_tasks_account_phase" ON "tasks" ("account_id", "phase") WHERE "phase" IN ('submitting', 'active')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await replace(
      q,
      'idx_tasks_account_phase',
      `CREATE INDEX "idx_tasks_account_phase" ON "tasks" ("account_id", "phase")`,
    );
    await replace(q, 'idx_tasks_sync_due', `CREATE INDEX "idx_tasks_sync_due" ON "tasks" ("sync_due_at")`);
    await replace(
      q,
      'uq_tasks_account_external',
      `CREATE UNIQUE INDEX "uq_tasks_account_external" ON "tasks" ("account_id", "external_task_id")`,
    );
    await replace(
      q,
      'idx_tasks_billing_finished',
      `CREATE INDEX "idx_tasks_billing_finished" ON "tasks" ("billing_state", "finished_at")`,
    );
    await q.query(`CREATE INDEX "idx_tasks_upstream" ON "tasks" ("upstream_task_id")`);
  }
}

async function replace(q: QueryRunner, name: string, create: string): Promise<void> {
  await q.query(`DROP INDEX "${name}"`);
  await q.query(create);
}
