import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An upstream's progress callback names its task by the task's callback token
 * (`POST /callbacks/upstream/:token`, PUBLIC_BASE_URL set): without an index every callback read
 * the whole tasks table. Partial: a task created without PUBLIC_BASE_URL has no token and no entry,
 * so a create pays for it only when callbacks are on. Unique, as the tokens are.
 */
export class CallbackTokenIndex1764600000000 implements MigrationInterface {
  name = 'CallbackTokenIndex1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE UNIQUE INDEX "uq_tasks_callback_token" ON "tasks" ("callback_token") WHERE "callback_token" IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "uq_tasks_callback_token"`);
  }
}
