import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccountEntity } from '../core/accounts/entities/account.entity';
import { UsageRecordEntity } from '../core/billing/entities/usage-record.entity';
import { isTaskUsageSql } from '../core/billing/usage-kinds';

/** A key holder's own figures: its account row and its charges since a time. Queries only. */
@Injectable()
export class MeRepository {
  constructor(private readonly dataSource: DataSource) {}

  account(id: string): Promise<AccountEntity | null> {
    return this.dataSource.getRepository(AccountEntity).findOneBy({ id });
  }

  /** Charged tasks, charged operations (calls without a task) and the whole amount since a time. */
  async chargedSince(
    accountId: string,
    sinceMs: number,
  ): Promise<{ tasks: number; amount: number; operations: number }> {
    const task = isTaskUsageSql('u');
    const row = await this.dataSource
      .getRepository(UsageRecordEntity)
      .createQueryBuilder('u')
      .select(`COALESCE(SUM(CASE WHEN ${task} THEN 1 ELSE 0 END), 0)`, 'tasks')
      .addSelect(`COALESCE(SUM(CASE WHEN ${task} THEN 0 ELSE 1 END), 0)`, 'operations')
      .addSelect('COALESCE(SUM(u.amount), 0)', 'amount')
      .where('u.account_id = :accountId AND u.created_at >= :sinceMs', { accountId, sinceMs })
      .getRawOne<{ tasks: string | number; operations: string | number; amount: string | number }>();
    return {
      tasks: Number(row?.tasks ?? 0),
      amount: Number(row?.amount ?? 0),
      operations: Number(row?.operations ?? 0),
    };
  }
}
