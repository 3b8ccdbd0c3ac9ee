import { Repository } from 'typeorm';
import { usageRecordFactory } from '../../../test/factories';
import { offlineManager } from '../../../test/fakes';
import { UsageRecordEntity } from './entities/usage-record.entity';
import { UsageLog } from './usage-log.service';
import { UsageFilter, UsageRepository } from './usage.repository';

/** The usage rows in memory, filtered and ordered as the SQL does. */
class InMemoryUsage extends UsageRepository {
  constructor(private readonly rows: UsageRecordEntity[]) {
    super(new Repository(UsageRecordEntity, offlineManager));
  }

  override async list(filter: UsageFilter): Promise<{ items: UsageRecordEntity[]; total: number }> {
    const hits = this.rows
      .filter(
        (u) =>
          (filter.accountId === undefined || u.accountId === filter.accountId) &&
          (filter.model === undefined || u.model === filter.model) &&
          (filter.fromMs === undefined || u.createdAt >= filter.fromMs) &&
          (filter.toMs === undefined || u.createdAt < filter.toMs),
      )
      .sort((a, b) => b.createdAt - a.createdAt);
    return { items: hits.slice(filter.offset, filter.offset + filter.limit), total: hits.length };
  }
}

describe('UsageLog', () => {
  const rows = [1, 2, 3, 4, 5].map((n) => usageRecordFactory.build({ id: `use_${n}`, createdAt: n * 1000 }));
  const log = new UsageLog(
    new InMemoryUsage([...rows, usageRecordFactory.build({ accountId: 'acct_2', createdAt: 9000 })]),
  );

  it('reads pages from 1: page 2 of 2 holds the third and fourth newest charges, with the total', async () => {
    const page = await log.list({ accountId: 'acct_1', page: 2, pageSize: 2 });
    expect(page).toEqual({ items: [rows[2], rows[1]], total: 5 });
  });
});
