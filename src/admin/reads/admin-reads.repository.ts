import { Injectable } from '@nestjs/common';
import { DataSource, In, SelectQueryBuilder } from 'typeorm';
import { AccountEntity } from '../../core/accounts/entities/account.entity';
import { ApiKeyEntity } from '../../core/accounts/entities/api-key.entity';
import { LedgerEntryEntity } from '../../core/billing/entities/ledger-entry.entity';
import { UsageRecordEntity } from '../../core/billing/entities/usage-record.entity';
import { isTaskUsageSql } from '../../core/billing/usage-kinds';
import { TaskEntity } from '../../core/tasks/entities/task.entity';
import { CursorPosition } from './cursor';

export interface AccountSearch {
  /** An account ID (exact) or part of a name (case-insensitive). */
  q?: string;
  after?: CursorPosition;
  /** Rows to fetch (the caller asks one more than it shows). */
  take: number;
}

export interface TaskSearch {
  accountId?: string;
  family?: string;
  model?: string;
  phase?: string;
  fromMs?: number;
  toMs?: number;
  externalTaskId?: string;
  upstreamTaskId?: string;
  after?: CursorPosition;
  take: number;
}

export interface DailyUsageFilter {
  accountId?: string;
  model?: string;
  fromMs?: number;
  toMs?: number;
}

export interface DailyUsageRow {
  /** UTC day, epoch ms of its midnight. */
  dayMs: number;
  model: string;
  /** Charged tasks. */
  tasks: number;
  /** Charged calls without a task (session operations). */
  operations: number;
  /** Everything charged: tasks and operations. */
  amount: number;
}

const DAY_MS = 86_400_000;

/** The operator console's reads across the core's tables: searches, cursor pages, per-day sums. Queries only. */
@Injectable()
export class AdminReadsRepository {
  constructor(private readonly dataSource: DataSource) {}

  searchAccounts(search: AccountSearch): Promise<AccountEntity[]> {
    const qb = this.dataSource.getRepository(AccountEntity).createQueryBuilder('a');
    if (search.q !== undefined) {
      qb.andWhere("(a.id = :id OR LOWER(a.name) LIKE :name ESCAPE '\\')", {
        id: search.q,
        name: `%${escapeLike(search.q.toLowerCase())}%`,
      });
    }
    return newestFirst(qb, 'a', search.after, search.take).getMany();
  }

  keysOfAccount(accountId: string): Promise<ApiKeyEntity[]> {
    return this.dataSource.getRepository(ApiKeyEntity).find({ where: { accountId }, order: { createdAt: 'DESC' } });
  }

  keyById(id: string): Promise<ApiKeyEntity | null> {
    return this.dataSource.getRepository(ApiKeyEntity).findOneBy({ id });
  }

  accountById(id: string): Promise<AccountEntity | null> {
    return this.dataSource.getRepository(AccountEntity).findOneBy({ id });
  }

  /** Account ID -> name, for the IDs given that exist. */
  async accountNames(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.dataSource
      .getRepository(AccountEntity)
      .find({ select: { id: true, name: true }, where: { id: In([...new Set(ids)]) } });
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  searchTasks(search: TaskSearch): Promise<TaskEntity[]> {
    const qb = this.dataSource.getRepository(TaskEntity).createQueryBuilder('t');
    const equal: Array<[keyof TaskSearch, string]> = [
      ['accountId', 'account_id'],
      ['family', 'family'],
      ['model', 'model'],
      ['phase', 'phase'],
      ['externalTaskId', 'external_task_id'],
      ['upstreamTaskId', 'upstream_task_id'],
    ];
    for (const [field, column] of equal) {
      if (search[field] !== undefined) qb.andWhere(`t.${column} = :${field}`, { [field]: search[field] });
    }
    if (search.fromMs !== undefined) qb.andWhere('t.created_at >= :fromMs', { fromMs: search.fromMs });
    if (search.toMs !== undefined) qb.andWhere('t.created_at < :toMs', { toMs: search.toMs });
    return newestFirst(qb, 't', search.after, search.take).getMany();
  }

  taskById(id: string): Promise<TaskEntity | null> {
    return this.dataSource.getRepository(TaskEntity).findOneBy({ id });
  }

  ledgerOfTask(taskId: string): Promise<LedgerEntryEntity[]> {
    return this.dataSource
      .getRepository(LedgerEntryEntity)
      .find({ where: { taskId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Charged tasks, charged operations and their sum per UTC day and model, oldest day first. */
  async dailyUsage(filter: DailyUsageFilter): Promise<DailyUsageRow[]> {
    const task = isTaskUsageSql('u');
    const qb = this.dataSource
      .getRepository(UsageRecordEntity)
      .createQueryBuilder('u')
      // Integer division on both databases (bigint / integer in PostgreSQL, integer / integer in SQLite).
      .select(`u.created_at / ${DAY_MS}`, 'day')
      .addSelect('u.model', 'model')
      .addSelect(`SUM(CASE WHEN ${task} THEN 1 ELSE 0 END)`, 'tasks')
      .addSelect(`SUM(CASE WHEN ${task} THEN 0 ELSE 1 END)`, 'operations')
      .addSelect('SUM(u.amount)', 'amount');
    if (filter.accountId !== undefined) qb.andWhere('u.account_id = :accountId', { accountId: filter.accountId });
    if (filter.model !== undefined) qb.andWhere('u.model = :model', { model: filter.model });
    if (filter.fromMs !== undefined) qb.andWhere('u.created_at >= :fromMs', { fromMs: filter.fromMs });
    if (filter.toMs !== undefined) qb.andWhere('u.created_at < :toMs', { toMs: filter.toMs });
    const rows = await qb
      .groupBy('day')
      .addGroupBy('u.model')
      .orderBy('day', 'ASC')
      .addOrderBy('u.model', 'ASC')
      .getRawMany<{
        day: string | number;
        model: string;
        tasks: string | number;
        operations: string | number;
        amount: string | number;
      }>();
    return rows.map((r) => ({
      dayMs: Number(r.day) * DAY_MS,
      model: r.model,
      tasks: Number(r.tasks),
      operations: Number(r.operations),
      amount: Number(r.amount),
    }));
  }
}

/** Newest first, ID breaking ties; after a cursor, only rows strictly past it in that order. */
function newestFirst<T extends object>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  after: CursorPosition | undefined,
  take: number,
): SelectQueryBuilder<T> {
  if (after) {
    qb.andWhere(`(${alias}.created_at < :afterAt OR (${alias}.created_at = :afterAt AND ${alias}.id < :afterId))`, {
      afterAt: after.createdAt,
      afterId: after.id,
    });
  }
  return qb.orderBy(`${alias}.created_at`, 'DESC').addOrderBy(`${alias}.id`, 'DESC').limit(take);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
