import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A lease on each kl session: the request whose upstream call is running holds it (a random
 * token and an expiry), so one session's calls reach the upstream one at a time, on every
 * instance. Both null when no call is running.
 */
export class KlSessionLease1765050000000 implements MigrationInterface {
  name = 'KlSessionLease1765050000000';

  // Plain ALTER TABLE on both databases (TypeORM's SQLite addColumn rebuilds the whole table).
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "kl_sessions" ADD COLUMN "lease_token" varchar(64)');
    await q.query('ALTER TABLE "kl_sessions" ADD COLUMN "lease_until" bigint');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "kl_sessions" DROP COLUMN "lease_until"');
    await q.query('ALTER TABLE "kl_sessions" DROP COLUMN "lease_token"');
  }
}
