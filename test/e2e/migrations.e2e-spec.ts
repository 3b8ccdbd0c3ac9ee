import { DataSource } from 'typeorm';
import { UsageRecordEntity } from '../../src/core/billing/entities/usage-record.entity';
import { ReconciliationRepository } from '../../src/core/tasks/reconciliation/reconciliation.repository';
import { TasksRepository } from '../../src/core/tasks/tasks.repository';
import { OneActionName1764100000000 } from '../../src/platform/database/migrations/1764100000000-one-action-name';
import { TaskDeletedAt1765000000000 } from '../../src/platform/database/migrations/1765000000000-task-deleted-at';
import { Harness, startGateway } from '../support/gateway-harness';
import { taskRecord } from '../factories/tasks';

/** Data migrations, run against rows written the old way, on the database of the test run. */
describe('migration: one action name per kind of work', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.close());

  it('renames ax usage rows from r2v to reference2video and leaves the others alone', async () => {
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
    await ds
      .getRepository(UsageRecordEntity)
      .insert([row('old', 'wx2.7-r2v', 'r2v'), row('voice', 'kl-v1', 'custom_voices')] as never);
    const runner = ds.createQueryRunner();
    try {
      await new OneActionName1764100000000().up(runner);
    } finally {
      await runner.release();
    }
    const rows = await ds
      .getRepository(UsageRecordEntity)
      .find({ where: { accountId: 'acct_m' }, order: { id: 'ASC' } });
    expect(rows.map((r) => [r.id, r.action])).toEqual([
      ['old', 'reference2video'],
      ['voice', 'custom_voices'],
    ]);
  });
});

/** Migrations 1764500000000 and 1764600000000: the task indexes hold only the rows their queries look for. */
describe('migration: lean task indexes', () => {
  let gw: Harness;
  let ds: DataSource;
  beforeAll(async () => {
    // No background workers: the statements read through TypeORM's logger are the test's own.
    gw = await startGateway({ env: { WORKERS_ENABLED: 'false' } });
    ds = gw.app.get(DataSource);
  });
  afterAll(() => gw.close());

  async function taskIndexes(): Promise<Map<string, string>> {
    const rows: Array<{ name: string; sql: string }> =
      ds.options.type === 'postgres'
        ? await ds.query(`SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE tablename = 'tasks'`)
        : await ds.query(
            `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tasks' AND sql IS NOT NULL`,
          );
    return new Map(rows.map((r) => [r.name, r.sql]));
  }

  it('drops the unread upstream index and makes the others partial', async () => {
    const indexes = await taskIndexes();
    expect(indexes.has('idx_tasks_upstream')).toBe(false);
    for (const name of [
      'idx_tasks_billing_finished',
      'uq_tasks_account_external',
      'idx_tasks_sync_due',
      'idx_tasks_account_phase',
      'uq_tasks_callback_token',
    ]) {
      expect(indexes.get(name)).toMatch(/ WHERE /i);
    }
    expect(indexes.get('idx_tasks_account_action_created')).not.toMatch(/ WHERE /i);
  });

  it('keeps external_task_id unique per account, and any number of tasks without one', async () => {
    const repo = gw.app.get(TasksRepository);
    await repo.insert(taskRecord({ id: 'task_lean_a', accountId: 'acct_lean' }));
    await repo.insert(taskRecord({ id: 'task_lean_b', accountId: 'acct_lean' }));
    await repo.insert(taskRecord({ id: 'task_lean_c', accountId: 'acct_lean', externalTaskId: 'ext-1' }));
    await repo.insert(taskRecord({ id: 'task_lean_d', accountId: 'acct_other', externalTaskId: 'ext-1' }));
    await expect(
      repo.insert(taskRecord({ id: 'task_lean_e', accountId: 'acct_lean', externalTaskId: 'ext-1' })),
    ).rejects.toThrow(/unique|duplicate/i);
  });

  /** The SQL (and parameters) TypeORM sends while `work` runs, read through its logger. */
  async function statementsOf(work: () => Promise<unknown>): Promise<Array<{ sql: string; params: unknown[] }>> {
    const seen: Array<{ sql: string; params: unknown[] }> = [];
    const logQuery = jest.spyOn(ds.logger, 'logQuery').mockImplementation((sql, params) => {
      seen.push({ sql, params: params ?? [] });
    });
    try {
      await work();
    } finally {
      logQuery.mockRestore();
    }
    return seen;
  }

  it('answers the repositories’ own sweep, external-ID and callback-token queries, and the due scan, from the partial indexes (query plans)', async () => {
    const reconciliation = gw.app.get(ReconciliationRepository);
    const [sweep] = await statementsOf(() => reconciliation.terminalStillHeld(5, 100));
    const [slots] = await statementsOf(() => reconciliation.slotCounts('', 10));
    const [external] = await statementsOf(() => gw.app.get(TasksRepository).externalIdHolder('a', 'x'));
    const [callback] = await statementsOf(() => gw.app.get(TasksRepository).findByCallbackToken('t'.repeat(32)));
    const runner = ds.createQueryRunner();
    // PostgreSQL would scan a table this small whatever its indexes: plans are read with scans off.
    if (ds.options.type === 'postgres') await runner.query('SET enable_seqscan = off');
    const explain = ds.options.type === 'postgres' ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN';
    const plan = async (sql: string, params: unknown[] = []) =>
      JSON.stringify(await runner.query(`${explain} ${sql}`, params));
    try {
      expect(await plan(sweep.sql, sweep.params)).toContain('idx_tasks_billing_finished');
      expect(await plan(slots.sql, slots.params)).toContain('idx_tasks_account_phase');
      expect(await plan(external.sql, external.params)).toContain('uq_tasks_account_external');
      // An upstream's callback (migration 1764600000000): not a read of the whole table.
      expect(await plan(callback.sql, callback.params)).toContain('uq_tasks_callback_token');
      // The sync worker's lease (HotSql, past TypeORM's logger): its due scan.
      expect(
        await plan(
          `SELECT id FROM tasks WHERE sync_due_at <= 5 AND (lease_until IS NULL OR lease_until < 5) ORDER BY sync_due_at LIMIT 50`,
        ),
      ).toContain('idx_tasks_sync_due');
    } finally {
      if (ds.options.type === 'postgres') await runner.query('RESET enable_seqscan');
      await runner.release();
    }
  });
});

/** Migration 1765000000000: a deletion is a column of the task, read by every route. */
describe('migration: task deleted_at', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway({ env: { WORKERS_ENABLED: 'false' } });
  });
  afterAll(() => gw.close());

  it('moves the OpenAI face’s deletion mark from the creation echo into deleted_at, and leaves other tasks alone', async () => {
    const ds = gw.app.get(DataSource);
    const repo = gw.app.get(TasksRepository);
    const done = { phase: 'succeeded' as const, finishedAt: 1 };
    await repo.insert(
      taskRecord({ id: 'task_del_a', ...done, creationEcho: { _face: 'openai', _deleted_at: 1_700_000_000_123 } }),
    );
    await repo.insert(taskRecord({ id: 'task_del_b', ...done, creationEcho: { _face: 'openai' } }));
    await repo.insert(taskRecord({ id: 'task_del_c', ...done, creationEcho: { note: 'mentions _deleted_at' } }));
    await repo.insert(taskRecord({ id: 'task_del_d', ...done }));
    const migration = new TaskDeletedAt1765000000000();
    const runner = ds.createQueryRunner();
    try {
      // As on a database from before it: the column is not there, the mark is in the echo.
      await migration.down(runner);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const deletedAt = async (id: string) => (await repo.findById(id))?.deletedAt;
    expect(await deletedAt('task_del_a')).toBe(1_700_000_000_123);
    for (const id of ['task_del_b', 'task_del_c', 'task_del_d']) expect(await deletedAt(id)).toBeNull();
  });
});
