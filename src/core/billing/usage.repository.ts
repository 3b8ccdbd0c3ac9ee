import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { UsageRecordEntity } from './entities/usage-record.entity';

export interface UsageFilter {
  accountId?: string;
  model?: string;
  /** Inclusive lower bound, epoch ms. */
  fromMs?: number;
  /** Exclusive upper bound, epoch ms. */
  toMs?: number;
  offset: number;
  limit: number;
}

/**
 * Reads of the usage log for operators. Every filter combination has an index to start from:
 * (account_id, created_at), (model, created_at) or (created_at).
 */
@Injectable()
export class UsageRepository {
  constructor(@InjectRepository(UsageRecordEntity) private readonly repo: Repository<UsageRecordEntity>) {}

  /** One page, newest first (id breaks ties so pages never overlap), and the total under the filter. */
  async list(filter: UsageFilter): Promise<{ items: UsageRecordEntity[]; total: number }> {
    const qb = this.repo.createQueryBuilder('u');
    if (filter.accountId !== undefined) qb.andWhere('u.account_id = :accountId', { accountId: filter.accountId });
    if (filter.model !== undefined) qb.andWhere('u.model = :model', { model: filter.model });
    if (filter.fromMs !== undefined) qb.andWhere('u.created_at >= :fromMs', { fromMs: filter.fromMs });
    if (filter.toMs !== undefined) qb.andWhere('u.created_at < :toMs', { toMs: filter.toMs });
    const total = await qb.getCount();
    if (total <= filter.offset) return { items: [], total };
    const items = await qb
      .orderBy('u.created_at', 'DESC')
      .addOrderBy('u.id', 'DESC')
      .offset(filter.offset)
      .limit(filter.limit)
      .getMany();
    return { items, total };
  }
}
