import { MigrationInterface, QueryRunner } from 'typeorm';

/** An operator may move a channel to another priority tier at run time; null keeps the configured tier. */
export class ChannelPriority1765340000000 implements MigrationInterface {
  name = 'ChannelPriority1765340000000';

  // Plain ALTER TABLE on both databases (TypeORM's SQLite addColumn rebuilds the whole table).
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "channel_settings" ADD COLUMN "priority" integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "channel_settings" DROP COLUMN "priority"`);
  }
}
