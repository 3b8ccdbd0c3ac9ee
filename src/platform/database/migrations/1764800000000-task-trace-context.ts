import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The W3C `traceparent` of the request that created a task, and a copy on each client callback
 * queued for it: the task's later spans (polls, settlement, callbacks, result downloads), on any
 * instance, join that request's trace. Null when tracing was off at creation.
 */
export class TaskTraceContext1764800000000 implements MigrationInterface {
  name = 'TaskTraceContext1764800000000';

  // Plain ALTER TABLE on both databases (TypeORM's SQLite addColumn rebuilds the whole table).
  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await q.query(`ALTER TABLE "${table}" ADD COLUMN "trace_context" varchar(55)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await q.query(`ALTER TABLE "${table}" DROP COLUMN "trace_context"`);
  }
}

const TABLES = ['tasks', 'callback_deliveries'];
