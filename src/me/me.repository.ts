import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccountEntity } from '../core/accounts/entities/account.entity';
import { UsageRecordEntity } from '../core/billing/entities/usage-record.entity';

/** A key holder's own figures: its account row and its charges since a time. Queries only. */
@Injectable()
export class MeRepository {
  constructor(private readonly dataSource: DataSource) {}

  account(id: string): Promise<AccountEntity | null> {
    return this.dataSource.getRepository(AccountEntity).findOneBy({ id });
  }

  async chargedSince(accountId: string, sinceMs: number): Promise<{ tasks: number; amount: number }> {
    const row = await this.dataSource
      .getRepository(UsageRecordEntity)
      .createQueryBuilder('u')
      .select('COUNT(*)', 'tasks')
      .addSelect('COALESCE(SUM(u.amount), 0)', 'amount')
      .where('u.account_id = :accountId AND u.created_at >= :sinceMs', { accountId, sinceMs })
      .getRawOne<{ tasks: string | number; amount: string | number }>();
    return { tasks: Number(row?.tasks ?? 0), amount: Number(row?.amount ?? 0) };
  }
}
