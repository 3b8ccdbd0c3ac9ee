import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../platform/database/data-source-options';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { AccountEntity } from '../accounts/entities/account.entity';
import { LedgerEntryEntity } from '../billing/entities/ledger-entry.entity';
import { TaskEntity } from './entities/task.entity';
import { TasksRepository } from './tasks.repository';

/** `open`: slot, hold, hold entry and record together or not at all (on PostgreSQL too when TEST_PG_URL is set). */
const targets: Array<[string, string]> = [['SQLite', 'sqlite::memory:']];
if (process.env.TEST_PG_URL) targets.push(['PostgreSQL', process.env.TEST_PG_URL]);

describe.each(targets)('TasksRepository.open on %s', (_name, url) => {
  let ds: DataSource;
  let tasks: TasksRepository;
  let transactions: TransactionRunner;

  beforeAll(async () => {
    if (url.startsWith('postgres')) {
      const reset = new DataSource({ type: 'postgres', url });
      await reset.initialize();
      await reset.query('DROP SCHEMA IF EXISTS public CASCADE');
      await reset.query('CREATE SCHEMA public');
      await reset.destroy();
    }
    ds = new DataSource({ ...dataSourceOptions(url, true, [AccountEntity, TaskEntity, LedgerEntryEntity]) } as never);
    await ds.initialize();
    tasks = new TasksRepository(ds.getRepository(TaskEntity), ds);
    transactions = new TransactionRunner(ds);
    await ds
      .getRepository(AccountEntity)
      .insert({ id: 'acct_1', name: 'a', balance: 10_000, held: 0, disabled: false, inFlightTasks: 0, webhookSecret: 'w', createdAt: 1, updatedAt: 1 } as never);
  });
  afterAll(() => ds.destroy());

  const task = (id: string): TaskEntity =>
    Object.assign(new TaskEntity(), {
      id,
      accountId: 'acct_1',
      apiKeyId: null,
      family: 'ax',
      action: 'reference2video',
      model: 'm',
      channelId: 'c',
      upstreamTaskId: null,
      phase: 'submitting',
      nativeStatus: 'PENDING',
      outerStatus: 'SUBMITTED',
      progress: 0,
      failureCode: null,
      failureReason: null,
      requestSnapshot: { a: 1 },
      creationEcho: null,
      result: null,
      lastNative: null,
      nativeUsage: null,
      externalTaskId: null,
      callbackUrl: null,
      callbackToken: null,
      billableUsage: { kind: 'x' },
      billingState: 'held',
      estimatedCharge: 4000,
      finalCharge: null,
      priceVersion: 1,
      createdAt: 5,
      updatedAt: 5,
      finishedAt: null,
      syncDueAt: 9,
      syncAttempts: 0,
      leaseOwner: null,
      leaseUntil: null,
      deadlineAt: 99,
    } as unknown as TaskEntity);
  const hold = (taskId: string, amount: number): LedgerEntryEntity =>
    Object.assign(new LedgerEntryEntity(), { id: `le_${taskId}`, accountId: 'acct_1', kind: 'hold', amount, taskId, reason: 'held', priceVersion: 1, createdAt: 5 });

  it('opens: slot, hold, entry and record', async () => {
    await expect(transactions.runAtomic((tx) => tasks.open(task('t1'), hold('t1', 4000), 2, tx))).resolves.toBe('opened');
    const account = await ds.getRepository(AccountEntity).findOneByOrFail({ id: 'acct_1' });
    expect([account.balance, account.held, account.inFlightTasks]).toEqual([6000, 4000, 1]);
    expect((await tasks.findForAccount('t1', 'acct_1'))?.requestSnapshot).toEqual({ a: 1 });
    expect(await ds.getRepository(LedgerEntryEntity).countBy({ taskId: 't1', kind: 'hold' })).toBe(1);
  });

  it('takes nothing when the balance cannot cover the hold, or the cap is reached', async () => {
    await expect(transactions.runAtomic((tx) => tasks.open(task('t2'), hold('t2', 7000), 2, tx))).resolves.toBe('insufficient-balance');
    await expect(transactions.runAtomic((tx) => tasks.open(task('t3'), hold('t3', 10), 1, tx))).resolves.toBe('at-capacity');
    const account = await ds.getRepository(AccountEntity).findOneByOrFail({ id: 'acct_1' });
    expect([account.balance, account.held, account.inFlightTasks]).toEqual([6000, 4000, 1]);
    expect(await tasks.findById('t2')).toBeNull();
    expect(await tasks.findById('t3')).toBeNull();
  });
});
