import { Injectable } from '@nestjs/common';
import { UsageRecordEntity } from './entities/usage-record.entity';
import { UsageRepository } from './usage.repository';

export interface UsageQuery {
  accountId?: string;
  model?: string;
  fromMs?: number;
  toMs?: number;
  /** 1-based. */
  page: number;
  pageSize: number;
}

/** The usage log as operators read it: one row per charged task, what the customer is billed. */
@Injectable()
export class UsageLog {
  constructor(private readonly usage: UsageRepository) {}

  list(query: UsageQuery): Promise<{ items: UsageRecordEntity[]; total: number }> {
    const { page, pageSize, ...filters } = query;
    return this.usage.list({ ...filters, offset: (page - 1) * pageSize, limit: pageSize });
  }
}
