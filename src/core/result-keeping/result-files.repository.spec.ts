import { DataSource } from 'typeorm';
import { databaseTargets, openTestDataSource } from '../../../test/support/db-targets';
import { resultFileFactory } from '../../../test/factories/results';
import { ResultFileEntity } from './result-file.entity';
import { ResultFilesRepository } from './result-files.repository';

/** The store's counts for readiness, metrics and the cap; on PostgreSQL too in CI's second pass. */
describe.each(databaseTargets())('ResultFilesRepository counts on %s', (_name, url) => {
  let ds: DataSource;
  let files: ResultFilesRepository;

  beforeAll(async () => {
    ds = await openTestDataSource(url, [ResultFileEntity]);
    files = new ResultFilesRepository(ds.getRepository(ResultFileEntity), ds);
  });
  afterAll(() => ds.destroy());

  it('counts nothing in an empty store', async () => {
    expect(await files.pendingCount()).toBe(0);
    expect(await files.storedTotals()).toEqual({ files: 0, bytes: 0 });
  });

  it('counts waiting files (leased or not) as pending, and stored files and their bytes as stored', async () => {
    const done = { nextAttemptAt: null, leaseOwner: null, leaseUntil: null };
    await ds
      .getRepository(ResultFileEntity)
      .insert([
        resultFileFactory.build(),
        resultFileFactory.build({ attempts: 1, leaseOwner: 'worker_1', leaseUntil: Date.now() + 60_000 }),
        resultFileFactory.build({ ...done, status: 'stored', storageKey: 'a', sizeBytes: 2236 }),
        resultFileFactory.build({ ...done, status: 'stored', storageKey: 'b', sizeBytes: 552 }),
        resultFileFactory.build({ ...done, status: 'failed', lastError: 'gone' }),
        resultFileFactory.build({ ...done, status: 'skipped', lastError: 'too large' }),
        resultFileFactory.build({ ...done, status: 'removed', sizeBytes: 999 }),
      ]);
    expect(await files.pendingCount()).toBe(2);
    expect(await files.storedTotals()).toEqual({ files: 2, bytes: 2788 });
  });
});
