import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { HotSql } from '../../platform/database/hot-sql';
import { HoldGate } from '../billing/hold-gate';
import { LedgerEntryEntity } from '../billing/entities/ledger-entry.entity';
import { TaskEntity } from './entities/task.entity';

/** What `TasksRepository.open` did: opened the task, or nothing because of the cap or the balance. */
export type OpenOutcome = 'opened' | 'at-capacity' | 'insufficient-balance';

export interface TaskListQuery {
  accountId: string;
  family: string;
  action: string;
  model?: string;
  /** The key's model restriction: only these models' tasks. */
  models?: string[];
  ids?: string[];
  offset: number;
  limit: number;
}

/** Persistence of task records; the due-task scan only ever touches non-terminal rows. */
@Injectable()
export class TasksRepository implements HoldGate {
  private readonly isPostgres: boolean;
  /** Fixed SQL for the statements of every create, query and sync (see HotSql). */
  private readonly hot: HotSql;

  constructor(
    @InjectRepository(TaskEntity) private readonly repo: Repository<TaskEntity>,
    dataSource: DataSource,
  ) {
    this.isPostgres = dataSource.options.type === 'postgres';
    this.hot = HotSql.of(dataSource);
  }

  async insert(task: TaskEntity, manager?: EntityManager): Promise<void> {
    await this.hot.insert(manager, TaskEntity, task);
  }

  /**
   * Slot, hold, hold entry and task record together or not at all, for the creation path to reach
   * 2 database round trips per create (this one and the acceptance update). On PostgreSQL one
   * statement of data-modifying CTEs (atomic on its own; run it with `manager` undefined, e.g.
   * through `TransactionRunner.runAtomic`); on SQLite the same statements, to be run inside a
   * transaction (`runAtomic` queues one). The cap is checked before the balance. See
   * docs/benchmarks.md, "Round trips per create".
   */
  async open(task: TaskEntity, hold: LedgerEntryEntity, cap: number, manager?: EntityManager): Promise<OpenOutcome> {
    const amount = Math.trunc(hold.amount);
    if (this.isPostgres) {
      const sql = this.hot.openSql(TaskEntity, LedgerEntryEntity);
      const row = await this.hot.first(manager, sql, [
        amount,
        task.accountId,
        cap,
        ...this.hot.values(LedgerEntryEntity, hold),
        ...this.hot.values(TaskEntity, task),
      ]);
      if (row && Number(row.opened) === 1) return 'opened';
      return row && row.at_capacity ? 'at-capacity' : 'insufficient-balance';
    }
    const taken = await this.hot.run(
      manager,
      'UPDATE "accounts" SET "in_flight_tasks" = "in_flight_tasks" + 1, "balance" = "balance" - ?, "held" = "held" + ? WHERE "id" = ? AND "in_flight_tasks" < ? AND "balance" >= ?',
      [amount, amount, task.accountId, cap, amount],
    );
    if (taken !== 1) {
      const account = await this.hot.first(manager, 'SELECT "in_flight_tasks" FROM "accounts" WHERE "id" = ?', [
        task.accountId,
      ]);
      return account && Number(account.in_flight_tasks) >= cap ? 'at-capacity' : 'insufficient-balance';
    }
    await this.hot.insert(manager, LedgerEntryEntity, hold);
    await this.hot.insert(manager, TaskEntity, task);
    return 'opened';
  }

  /** The once-only gate of settlement (billing's `HoldGate`): only one caller moves a task out of `held`. */
  async close(
    tx: EntityManager,
    taskId: string,
    to: 'settled' | 'released',
    finalCharge: number | null,
    priceVersion: number | null,
  ): Promise<boolean> {
    const set: Partial<TaskEntity> = { billingState: to, finalCharge };
    if (priceVersion !== null) set.priceVersion = priceVersion;
    return (await this.hot.update(tx, TaskEntity, set, `"id" = ? AND "billing_state" = 'held'`, [taskId])) === 1;
  }

  findById(id: string): Promise<TaskEntity | null> {
    return this.hot.findOne(undefined, TaskEntity, '"id" = ?', [id]);
  }

  /**
   * Scoped read: another account's task does not exist for this caller. Read by primary key alone
   * and the account compared here: with `"account_id" = ?` in the WHERE, PostgreSQL planned the
   * named statement on a table without statistics (a fresh database, until autovacuum's first
   * ANALYZE) through `idx_tasks_account_action_created`, and a connection kept that plan, reading
   * every task of the account on each query.
   */
  async findForAccount(id: string, accountId: string): Promise<TaskEntity | null> {
    const task = await this.hot.findOne(undefined, TaskEntity, '"id" = ?', [id]);
    return task && task.accountId === accountId ? task : null;
  }

  findByCallbackToken(token: string): Promise<TaskEntity | null> {
    return this.repo.findOneBy({ callbackToken: token });
  }

  /** The task holding this external_task_id, by ID and model (a failed creation holds none: its ID was cleared). */
  externalIdHolder(accountId: string, externalTaskId: string): Promise<Pick<TaskEntity, 'id' | 'model'> | null> {
    return this.repo.findOne({ where: { accountId, externalTaskId }, select: { id: true, model: true } });
  }

  async update(id: string, changes: Partial<TaskEntity>): Promise<void> {
    await this.repo.update({ id }, changes as never);
  }

  /**
   * Changes a task only while it is open (submitting or active): true for the one caller that did, so an ended task is
   * never reopened or ended twice.
   */
  async updateIfOpen(id: string, changes: Partial<TaskEntity>, manager?: EntityManager): Promise<boolean> {
    return (
      (await this.hot.update(manager, TaskEntity, changes, `"id" = ? AND "phase" IN ('submitting', 'active')`, [
        id,
      ])) === 1
    );
  }

  /**
   * Marks a finished task deleted by its owner; false when it is not finished or already deleted.
   * The owner's reads never show it again (`TaskQueries`, `list`).
   */
  async markDeleted(id: string, now: number): Promise<boolean> {
    const where = `"id" = ? AND "deleted_at" IS NULL AND "phase" IN ('succeeded', 'failed', 'cancelled')`;
    return (await this.hot.update(undefined, TaskEntity, { deletedAt: now, updatedAt: now }, where, [id])) === 1;
  }

  /**
   * An account's visible tasks of one action, newest first (rejected creations are not tasks to the caller, deleted
   * ones are not any more).
   */
  async list(query: TaskListQuery): Promise<{ items: TaskEntity[]; total: number }> {
    const qb = this.repo
      .createQueryBuilder('t')
      .where('t.account_id = :accountId AND t.family = :family AND t.action = :action AND t.phase <> :rejected', {
        accountId: query.accountId,
        family: query.family,
        action: query.action,
        rejected: 'rejected',
      })
      .andWhere('t.deleted_at IS NULL');
    if (query.model) qb.andWhere('t.model = :model', { model: query.model });
    if (query.models) qb.andWhere('t.model IN (:...models)', { models: query.models.length ? query.models : [''] });
    if (query.ids) qb.andWhere('t.id IN (:...ids)', { ids: query.ids.length ? query.ids : [''] });
    const [items, total] = await qb
      .orderBy('t.created_at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .skip(query.offset)
      .take(query.limit)
      .getManyAndCount();
    return { items, total };
  }

  /**
   * Leases up to `limit` due tasks to `owner` until `leaseUntil`, oldest due first. PostgreSQL
   * skips rows another instance holds (FOR UPDATE SKIP LOCKED); SQLite has one writer anyway.
   * Cost: an index range scan over due, non-terminal rows only.
   */
  async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<TaskEntity[]> {
    const lock = this.isPostgres ? ' FOR UPDATE SKIP LOCKED' : '';
    // One statement: the lease and the leased rows (RETURNING every column).
    const sql =
      'UPDATE "tasks" SET "lease_owner" = ?, "lease_until" = ? WHERE "id" IN (' +
      'SELECT "id" FROM "tasks" WHERE "sync_due_at" <= ? AND ("lease_until" IS NULL OR "lease_until" < ?) ' +
      `ORDER BY "sync_due_at" LIMIT ?${lock})`;
    return this.hot.returning(undefined, TaskEntity, sql, [owner, leaseUntil, now, now, limit]);
  }

  /**
   * Leases one task (callback-triggered sync); null when another worker holds it, or when it is still being created
   * (submitting and not yet due: the creating request may be waiting for the upstream's answer, and records it).
   */
  async claimOne(id: string, owner: string, now: number, leaseUntil: number): Promise<TaskEntity | null> {
    const sql =
      'UPDATE "tasks" SET "lease_owner" = ?, "lease_until" = ? WHERE "id" = ? AND "sync_due_at" IS NOT NULL ' +
      `AND ("phase" <> 'submitting' OR "sync_due_at" <= ?) AND ("lease_until" IS NULL OR "lease_until" < ?)`;
    const [task] = await this.hot.returning(undefined, TaskEntity, sql, [owner, leaseUntil, id, now, now]);
    return task ?? null;
  }

  /** Moves the end of `owner`'s lease of a task to `leaseUntil`; false when the lease was given up or taken over. */
  async renewLease(id: string, owner: string, leaseUntil: number): Promise<boolean> {
    return (
      (await this.hot.update(undefined, TaskEntity, { leaseUntil }, '"id" = ? AND "lease_owner" = ?', [id, owner])) ===
      1
    );
  }

  /**
   * Tasks not yet ended (submitting or active): every open task has a sync due time. Cost: an index-only count over
   * open rows.
   */
  async countOpen(): Promise<number> {
    const row = await this.hot.first(
      undefined,
      'SELECT count(*) AS "open" FROM "tasks" WHERE "sync_due_at" IS NOT NULL',
      [],
    );
    return Number(row?.open ?? 0);
  }
}
