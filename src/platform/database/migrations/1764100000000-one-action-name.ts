import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One action name per kind of work across families: ax's reference-to-video tasks were
 * stored as `r2v`, vd's as `reference2video`. Both are `reference2video` now, in task
 * records and usage rows alike.
 */
export class OneActionName1764100000000 implements MigrationInterface {
  name = 'OneActionName1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE tasks SET action = 'reference2video' WHERE family = 'ax' AND action = 'r2v'`);
    await q.query(`UPDATE usage_records SET action = 'reference2video' WHERE action = 'r2v'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE tasks SET action = 'r2v' WHERE family = 'ax' AND action = 'reference2video'`);
    await q.query(`UPDATE usage_records SET action = 'r2v' WHERE model LIKE 'wx%' AND action = 'reference2video'`);
  }
}
