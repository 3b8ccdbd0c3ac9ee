import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the task's owner deleted it: a deleted task is gone from every client read (queries,
 * lists, result URLs). Tasks deleted through the OpenAI-shaped face before were marked in their
 * creation echo (`_deleted_at`); the mark moves here.
 */
export class TaskDeletedAt1765000000000 implements MigrationInterface {
  name = 'TaskDeletedAt1765000000000';

  // Plain ALTER TABLE on both databases (TypeORM's SQLite addColumn rebuilds the whole table).
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "tasks" ADD COLUMN "deleted_at" bigint`);
    const marked = `"creation_echo" LIKE '%"\\_deleted\\_at":%' ESCAPE '\\'`;
    const echoed =
      q.connection.options.type === 'postgres'
        ? `("creation_echo"::json ->> '_deleted_at')::bigint`
        : `CAST(json_extract("creation_echo", '$._deleted_at') AS INTEGER)`;
    await q.query(`UPDATE "tasks" SET "deleted_at" = ${echoed} WHERE ${marked}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "tasks" DROP COLUMN "deleted_at"`);
  }
}
