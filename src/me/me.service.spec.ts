import { accountFactory, usageRecordFactory } from '../../test/factories';
import { FixedModelCatalogue, offline, principal } from '../../test/fakes';
import { AccountEntity } from '../core/accounts/entities/account.entity';
import { UsageRecordEntity } from '../core/billing/entities/usage-record.entity';
import { loadConfig } from '../platform/config/app-config';
import { ManualClock } from '../platform/time/clock';
import { MeRepository } from './me.repository';
import { MeService } from './me.service';

/** The account row and the usage rows in memory; a task's charge is under a task ID, a priced call's under another. */
class InMemoryMe extends MeRepository {
  constructor(
    private readonly accounts: AccountEntity[],
    private readonly usage: UsageRecordEntity[],
  ) {
    super(offline);
  }

  override async account(id: string): Promise<AccountEntity | null> {
    return this.accounts.find((a) => a.id === id) ?? null;
  }

  override async chargedSince(accountId: string, sinceMs: number) {
    const rows = this.usage.filter((u) => u.accountId === accountId && u.createdAt >= sinceMs);
    const tasks = rows.filter((u) => u.taskId.startsWith('task_')).length;
    return { tasks, operations: rows.length - tasks, amount: rows.reduce((sum, u) => sum + u.amount, 0) };
  }
}

const CATALOGUE = new FixedModelCatalogue([
  { name: 'ax-model', family: 'ax', protocol: 'v1', capabilities: ['r2v'] },
  { name: 'vd-model', family: 'vd', protocol: 'v1', capabilities: ['r2v'] },
]);
const MARCH_10 = Date.UTC(2026, 2, 10, 12);
const MARCH_1 = Date.UTC(2026, 2, 1);
const CONFIG = loadConfig({ DEFAULT_RATE_LIMIT_RPM: '120', DEFAULT_MAX_CONCURRENT_TASKS: '7' });

function setup(account: AccountEntity, usage: UsageRecordEntity[] = []) {
  const clock = new ManualClock(new Date(MARCH_10));
  const me = new MeService(new InMemoryMe([account], usage), CATALOGUE, clock, CONFIG);
  return { me };
}

describe('MeService', () => {
  const grants = new Map([
    ['vd-model', ['r2v']],
    ['ax-model', ['r2v']],
  ]);

  it('describes the account, what the calling key may use (sorted, with the family) and this month’s charges only', async () => {
    const account = accountFactory.build({
      id: 'acct_1',
      name: 'Acme',
      balance: 700,
      held: 100,
      maxConcurrentTasks: 3,
    });
    const { me } = setup(account, [
      usageRecordFactory.build({ taskId: 'task_a', amount: 80, createdAt: MARCH_1 }),
      usageRecordFactory.build({ taskId: 'hold_b', amount: 5, createdAt: MARCH_1 + 1 }),
      usageRecordFactory.build({ taskId: 'task_c', amount: 999, createdAt: MARCH_1 - 1 }),
    ]);
    await expect(me.describe(principal({}, null, grants))).resolves.toEqual({
      account_id: 'acct_1',
      account_name: 'Acme',
      balance: 700,
      held: 100,
      key_prefix: 'sk-test',
      models: [
        { model: 'ax-model', family: 'ax', capabilities: ['r2v'] },
        { model: 'vd-model', family: 'vd', capabilities: ['r2v'] },
      ],
      rate_limit_rpm: 120,
      max_concurrent_tasks: 3,
      usage_this_month: { since: '2026-03-01T00:00:00.000Z', tasks: 1, operations: 1, amount: 85 },
    });
  });

  it('a key restricted to some models lists only those; the account’s own rate limit wins over the default', async () => {
    const { me } = setup(accountFactory.build({ id: 'acct_1', rateLimitRpm: 30 }));
    const described = await me.describe(principal({}, ['vd-model'], grants));
    expect(described.models.map((m) => m.model)).toEqual(['vd-model']);
    expect(described.rate_limit_rpm).toBe(30);
  });

  it('gives the limits in force: the defaults where the account sets none', async () => {
    const { me } = setup(accountFactory.build({ id: 'acct_1', rateLimitRpm: null, maxConcurrentTasks: null }));
    const described = await me.describe(principal());
    expect([described.rate_limit_rpm, described.max_concurrent_tasks]).toEqual([
      CONFIG.DEFAULT_RATE_LIMIT_RPM,
      CONFIG.DEFAULT_MAX_CONCURRENT_TASKS,
    ]);
  });

  it('answers 401 when the key’s account is gone', async () => {
    const { me } = setup(accountFactory.build({ id: 'acct_other' }));
    await expect(me.describe(principal())).rejects.toMatchObject({ status: 401 });
  });
});
