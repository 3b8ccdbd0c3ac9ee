import { DataSource } from 'typeorm';
import { UsageRecordEntity } from '../../src/core/billing/entities/usage-record.entity';
import { OneActionName1764100000000 } from '../../src/platform/database/migrations/1764100000000-one-action-name';
import { Harness, startGateway } from '../support/gateway-harness';

/** Data migrations, run against rows written the old way, on the database of the test run. */
describe('migration: one action name per kind of work', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.close());

  it('renames family B usage rows from r2v to reference2video and leaves the others alone', async () => {
    const ds = gw.app.get(DataSource);
    const row = (id: string, model: string, action: string): UsageRecordEntity => ({
      id,
      taskId: `task_${id}`,
      accountId: 'acct_m',
      model,
      action,
      amount: 1,
      priceVersion: 1,
      usage: { kind: 'x' },
      createdAt: 1,
    });
    await ds.getRepository(UsageRecordEntity).insert([row('old', 'wx2.7-r2v', 'r2v'), row('voice', 'kl-v1', 'custom_voices')] as never);
    const runner = ds.createQueryRunner();
    try {
      await new OneActionName1764100000000().up(runner);
    } finally {
      await runner.release();
    }
    const rows = await ds.getRepository(UsageRecordEntity).find({ where: { accountId: 'acct_m' }, order: { id: 'ASC' } });
    expect(rows.map((r) => [r.id, r.action])).toEqual([
      ['old', 'reference2video'],
      ['voice', 'custom_voices'],
    ]);
  });
});
