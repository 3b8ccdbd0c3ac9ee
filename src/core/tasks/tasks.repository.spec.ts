import { DataSource } from 'typeorm';
import { databaseTargets, openTestDataSource } from '../../../test/support/db-targets';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { AccountEntity } from '../accounts/entities/account.entity';
import { LedgerEntryEntity } from '../billing/entities/ledger-entry.entity';
import { TaskEntity } from './entities/task.entity';
import { TasksRepository } from './tasks.repository';
import { taskRecord } from '../../../test/factories/tasks';
import { accountFactory } from '../../../test/factories/accounts';

/**
 * The repository's hot statements: `open` (slot, hold, hold entry and record together or not at
 * all) and the sync worker's leases; on PostgreSQL too in CI's
 * second pass (DATABASE_URL, whose schema is re-created as the e2e harness does) or with TEST_PG_URL.
 */
const targets = databaseTargets();

describe.each(targets)('TasksRepository on %s', (_name, url) => {
  let ds: DataSource;
  let tasks: TasksRepository;
  let transactions: TransactionRunner;

  beforeAll(async () => {
    ds = await openTestDataSource(url, [AccountEntity, TaskEntity, LedgerEntryEntity]);
    tasks = new TasksRepository(ds.getRepository(TaskEntity), ds);
    transactions = new TransactionRunner(ds);
    await ds.getRepository(AccountEntity).insert(accountFactory.build({ id: 'acct_1', name: 'a', balance: 10_000 }));
  });
  afterAll(() => ds.destroy());

  const task = (id: string): TaskEntity =>
    taskRecord({
      id,
      requestSnapshot: { a: 1 },
      estimatedCharge: 4000,
      createdAt: 5,
      updatedAt: 5,
      syncDueAt: 9,
      deadlineAt: 99,
    });
  const hold = (taskId: string, amount: number): LedgerEntryEntity =>
    Object.assign(new LedgerEntryEntity(), {
      id: `le_${taskId}`,
      accountId: 'acct_1',
      kind: 'hold',
      amount,
      taskId,
      reason: 'held',
      priceVersion: 1,
      createdAt: 5,
    });

  it('opens: slot, hold, entry and record', async () => {
    await expect(transactions.runAtomic((tx) => tasks.open(task('t1'), hold('t1', 4000), 2, tx))).resolves.toBe(
      'opened',
    );
    const account = await ds.getRepository(AccountEntity).findOneByOrFail({ id: 'acct_1' });
    expect([account.balance, account.held, account.inFlightTasks]).toEqual([6000, 4000, 1]);
    expect((await tasks.findForAccount('t1', 'acct_1'))?.requestSnapshot).toEqual({ a: 1 });
    expect(await ds.getRepository(LedgerEntryEntity).countBy({ taskId: 't1', kind: 'hold' })).toBe(1);
  });

  it('takes nothing when the balance cannot cover the hold, or the cap is reached', async () => {
    await expect(transactions.runAtomic((tx) => tasks.open(task('t2'), hold('t2', 7000), 2, tx))).resolves.toBe(
      'insufficient-balance',
    );
    await expect(transactions.runAtomic((tx) => tasks.open(task('t3'), hold('t3', 10), 1, tx))).resolves.toBe(
      'at-capacity',
    );
    const account = await ds.getRepository(AccountEntity).findOneByOrFail({ id: 'acct_1' });
    expect([account.balance, account.held, account.inFlightTasks]).toEqual([6000, 4000, 1]);
    expect(await tasks.findById('t2')).toBeNull();
    expect(await tasks.findById('t3')).toBeNull();
  });

  it('a statement that fails after the slot and hold were taken undoes them (the task ID is taken)', async () => {
    const duplicate = Object.assign(hold('t1', 100), { id: 'le_t1_again' });
    await expect(transactions.runAtomic((tx) => tasks.open(task('t1'), duplicate, 5, tx))).rejects.toThrow();
    const account = await ds.getRepository(AccountEntity).findOneByOrFail({ id: 'acct_1' });
    expect([account.balance, account.held, account.inFlightTasks]).toEqual([6000, 4000, 1]);
    expect(await ds.getRepository(LedgerEntryEntity).countBy({ id: 'le_t1_again' })).toBe(0);
  });

  if (!url.startsWith('postgres')) {
    it('SQLite: work that throws after its statements is rolled back whole, and the next transaction runs', async () => {
      await expect(
        transactions.runAtomic(async (tx) => {
          await tasks.open(task('t5'), hold('t5', 100), 5, tx);
          throw new Error('after the statements');
        }),
      ).rejects.toThrow('after the statements');
      expect(await tasks.findById('t5')).toBeNull();
      await expect(transactions.runAtomic((tx) => tasks.open(task('t6'), hold('t6', 100), 5, tx))).resolves.toBe(
        'opened',
      );
      const account = await ds.getRepository(AccountEntity).findOneByOrFail({ id: 'acct_1' });
      expect([account.balance, account.held, account.inFlightTasks]).toEqual([5900, 4100, 2]);
    });
  }

  if (url.startsWith('postgres')) {
    it('PostgreSQL: the scoped read is planned on the primary key even on a table without statistics (the plan a connection keeps for its named statement)', async () => {
      const master = (ds.driver as unknown as { master: { query: (config: unknown) => Promise<unknown> } }).master;
      const sent = jest.spyOn(master, 'query');
      let calls: Array<[{ text: string; values: unknown[] }]>;
      try {
        await tasks.findForAccount('t1', 'acct_1');
      } finally {
        calls = sent.mock.calls as Array<[{ text: string; values: unknown[] }]>;
        sent.mockRestore();
      }
      const [[statement]] = calls;
      const runner = ds.createQueryRunner();
      let prepared = false;
      try {
        // An empty copy of the table shadows it for this transaction: no rows, no statistics, as on
        // a fresh database; the generic plan is the one a connection caches after five executions.
        await runner.startTransaction();
        await runner.query('CREATE TEMP TABLE "tasks" (LIKE public."tasks" INCLUDING ALL) ON COMMIT DROP');
        await runner.query('SET LOCAL plan_cache_mode = force_generic_plan');
        await runner.query(`PREPARE scoped_read AS ${statement.text}`);
        prepared = true;
        const plan = (await runner.query(
          `EXPLAIN EXECUTE scoped_read(${statement.values.map(() => "'x'").join(', ')})`,
        )) as Array<{ 'QUERY PLAN': string }>;
        const text = plan.map((row) => row['QUERY PLAN']).join('\n');
        expect(text).toContain('Index Cond: ((id)::text = $1)');
        expect(text).not.toContain('account');
      } finally {
        await runner.rollbackTransaction();
        // A prepared statement outlives the transaction; the connection's own (pg's) stay.
        if (prepared) await runner.query('DEALLOCATE scoped_read');
        await runner.release();
      }
    });
  }

  it('claimDue leases only due, unleased tasks, up to the limit, returned whole in one statement; claimOne leases one', async () => {
    // Earlier tests' tasks are held by another worker for the rest of this test.
    await ds.query('UPDATE "tasks" SET "lease_until" = 1000000000000');
    const put = (id: string, syncDueAt: number | null, leaseUntil: number | null) =>
      tasks.insert(
        Object.assign(task(id), { phase: 'active' as const, syncDueAt, leaseUntil, requestSnapshot: { id } }),
      );
    await put('due1', 10, null);
    await put('due2', 20, 50);
    await put('later', 1_000_000, null);
    await put('ended', null, null);
    const leased = await tasks.claimDue('w1', 100, 5000, 10);
    expect(leased.map((t) => t.id).sort()).toEqual(['due1', 'due2']);
    expect(leased.every((t) => t instanceof TaskEntity && t.leaseOwner === 'w1' && Number(t.leaseUntil) === 5000)).toBe(
      true,
    );
    expect(leased.find((t) => t.id === 'due2')?.requestSnapshot).toEqual({ id: 'due2' });
    expect(await tasks.claimDue('w2', 100, 5000, 10)).toEqual([]);
    expect((await tasks.claimDue('w2', 6000, 9000, 1)).length).toBe(1);
    expect(await tasks.claimOne('due1', 'w3', 200, 900)).toBeNull();
    expect(await tasks.claimOne('ended', 'w3', 200, 900)).toBeNull();
    expect(await tasks.claimOne('later', 'w3', 200, 900)).toMatchObject({ id: 'later', leaseOwner: 'w3' });
    expect(await tasks.countOpen()).toBe((await ds.getRepository(TaskEntity).count()) - 1);
  });

  it('claimOne leaves a task being created to its request until it is due; renewLease moves only its owner’s lease', async () => {
    const put = (id: string, phase: TaskEntity['phase'], syncDueAt: number) =>
      tasks.insert(Object.assign(task(id), { phase, syncDueAt, leaseUntil: null, requestSnapshot: { id } }));
    await put('creating', 'submitting', 5_000);
    await put('polled', 'active', 5_000);
    // A callback before the creating request recorded the upstream's answer: that request still owns the task.
    expect(await tasks.claimOne('creating', 'w1', 4_999, 9_000)).toBeNull();
    // An accepted task is synced at once, due or not.
    expect(await tasks.claimOne('polled', 'w1', 4_999, 9_000)).toMatchObject({ leaseOwner: 'w1' });
    // Past its due time the creating call must have ended: the task is the worker's to reconcile.
    expect(await tasks.claimOne('creating', 'w1', 5_000, 9_000)).toMatchObject({ leaseOwner: 'w1' });

    expect(await tasks.renewLease('creating', 'w2', 20_000)).toBe(false);
    expect(await tasks.renewLease('creating', 'w1', 20_000)).toBe(true);
    expect(await tasks.claimOne('creating', 'w2', 10_000, 30_000)).toBeNull();
    expect(Number((await tasks.findById('creating'))?.leaseUntil)).toBe(20_000);
    // A lease given up (the sync's outcome clears it) is not renewed.
    await tasks.updateIfOpen('polled', { leaseOwner: null, leaseUntil: null });
    expect(await tasks.renewLease('polled', 'w1', 20_000)).toBe(false);
    expect((await tasks.findById('polled'))?.leaseUntil).toBeNull();
  });

  it("reads a record back exactly as TypeORM's own read does, every column converted (JSON, big integers, nulls)", async () => {
    const full = taskRecord({
      id: 't_full',
      requestSnapshot: { prompt: 'p', media: [{ url: 'u' }] },
      creationEcho: { echo: true },
      result: { videos: [{ url: 'v', durationSeconds: 5 }], voices: [] },
      lastNative: ['x', 1],
      nativeUsage: null,
      estimatedCharge: 9_007_199_254_740,
      createdAt: 1_764_000_000_123,
      updatedAt: 1_764_000_000_456,
      syncDueAt: null,
      deadlineAt: 1_764_000_999_000,
    });
    await transactions.runAtomic((tx) => tasks.open(full, hold('t_full', 1), 10, tx));
    const typeorm = await ds.getRepository(TaskEntity).findOneByOrFail({ id: 't_full' });
    const hot = await tasks.findForAccount('t_full', 'acct_1');
    expect(hot).toBeInstanceOf(TaskEntity);
    expect(hot).toEqual(typeorm);
    expect(await tasks.findForAccount('t_full', 'acct_other')).toBeNull();
  });

  it('marks a finished task deleted once, and its lists leave it out (total included)', async () => {
    const put = (id: string, phase: TaskEntity['phase']) =>
      tasks.insert(
        Object.assign(task(id), {
          accountId: 'acct_del',
          family: 'vd',
          action: 'reference2video',
          phase,
          finishedAt: 7,
        }),
      );
    await put('del_done', 'succeeded');
    await put('del_failed', 'failed');
    await put('del_running', 'active');
    const list = async () =>
      await tasks.list({ accountId: 'acct_del', family: 'vd', action: 'reference2video', offset: 0, limit: 10 });
    expect((await list()).total).toBe(3);
    expect(await tasks.markDeleted('del_done', 1000)).toBe(true);
    expect(await tasks.markDeleted('del_done', 2000)).toBe(false);
    expect(await tasks.markDeleted('del_running', 1000)).toBe(false);
    expect((await tasks.findById('del_done'))?.deletedAt).toBe(1000);
    expect((await tasks.findById('del_running'))?.deletedAt).toBeNull();
    const after = await list();
    expect([after.total, after.items.map((t) => t.id).sort()]).toEqual([2, ['del_failed', 'del_running']]);
  });
});
