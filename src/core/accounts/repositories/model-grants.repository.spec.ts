import { DataSource } from 'typeorm';
import { databaseTargets, openTestDataSource } from '../../../../test/support/db-targets';
import { TransactionRunner } from '../../../platform/database/transaction-runner';
import { AccountEntity } from '../entities/account.entity';
import { ModelGrantEntity } from '../entities/model-grant.entity';
import { ModelGrantsRepository } from './model-grants.repository';
import { accountFactory } from '../../../../test/factories/accounts';

/** Grant replacement is all or nothing, and takes no write of anyone else's with it when it fails. */
describe.each(databaseTargets())('ModelGrantsRepository on %s', (_name, url) => {
  let ds: DataSource;
  let grants: ModelGrantsRepository;
  const grant = (id: string, model: string): ModelGrantEntity =>
    Object.assign(new ModelGrantEntity(), { id, accountId: 'acct_1', model, capabilities: ['create'], createdAt: 1 });
  const models = async () => (await grants.listForAccount('acct_1')).map((g) => g.model);
  const name = async () => (await ds.getRepository(AccountEntity).findOneByOrFail({ id: 'acct_1' })).name;

  beforeAll(async () => {
    ds = await openTestDataSource(url, [AccountEntity, ModelGrantEntity]);
    grants = new ModelGrantsRepository(ds.getRepository(ModelGrantEntity), new TransactionRunner(ds));
    await ds.getRepository(AccountEntity).insert(accountFactory.build({ id: 'acct_1', name: 'before', balance: 0 }));
  });
  afterAll(() => ds.destroy());

  it('replaces the grants', async () => {
    await grants.replaceForAccount('acct_1', [grant('g1', 'm1'), grant('g2', 'm2')]);
    await grants.replaceForAccount('acct_1', [grant('g3', 'm3')]);
    expect(await models()).toEqual(['m3']);
  });

  it('a replacement that fails changes nothing, and a write sent meanwhile from outside it is kept', async () => {
    // The same model twice: the unique index refuses the second, after the delete has run.
    const failing = grants.replaceForAccount('acct_1', [grant('g4', 'm4'), grant('g5', 'm4')]);
    const outside = ds.getRepository(AccountEntity).update({ id: 'acct_1' }, { name: 'renamed' });
    await expect(failing).rejects.toThrow();
    await outside;
    expect(await models()).toEqual(['m3']);
    expect(await name()).toBe('renamed');
  });
});
