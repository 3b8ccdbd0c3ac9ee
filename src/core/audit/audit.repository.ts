import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AuditChainHeadEntity } from './audit-chain-head.entity';
import { AuditEntryEntity } from './audit-entry.entity';
import { ChainHead, ChainedContent, entryHash } from './audit-chain';

/** The chain head's one row. */
const HEAD_ID = 1;

export interface AuditFilter {
  actorId?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  accountId?: string;
  fromMs?: number;
  toMs?: number;
}

/** The audit trail's rows: appended in a change's own transaction, never updated or deleted. */
@Injectable()
export class AuditRepository {
  constructor(
    @InjectRepository(AuditEntryEntity) private readonly repo: Repository<AuditEntryEntity>,
    @InjectRepository(AuditChainHeadEntity) private readonly heads: Repository<AuditChainHeadEntity>,
  ) {}

  /**
   * Appends one entry at the end of the chain, inside the caller's transaction. The chain head row
   * is written first, so concurrent appends (two instances on PostgreSQL, two processes on one
   * SQLite file) queue on its lock until the first commits: the chain never forks. Call it last in
   * the transaction, after the change's own rows, so that the head's lock is held briefly and
   * always taken after them.
   */
  async append(tx: EntityManager, entry: Omit<ChainedContent, 'seq' | 'prevHash'>): Promise<AuditEntryEntity> {
    const heads = tx.getRepository(AuditChainHeadEntity);
    await heads.increment({ id: HEAD_ID }, 'seq', 1);
    const head = await heads.findOneByOrFail({ id: HEAD_ID });
    const content: ChainedContent = { ...entry, seq: head.seq, prevHash: head.hash };
    const row = Object.assign(new AuditEntryEntity(), content, { hash: entryHash(content) });
    await tx.getRepository(AuditEntryEntity).insert(row);
    await heads.update({ id: HEAD_ID }, { hash: row.hash });
    return row;
  }

  /** Newest first (chain order), before chain position `beforeSeq` when given, at most `take`. */
  page(filter: AuditFilter, beforeSeq: number | undefined, take: number): Promise<AuditEntryEntity[]> {
    const q = this.repo.createQueryBuilder('e');
    if (filter.actorId !== undefined) q.andWhere('e.actorId = :actorId', { actorId: filter.actorId });
    if (filter.action !== undefined) q.andWhere('e.action = :action', { action: filter.action });
    if (filter.targetType !== undefined) q.andWhere('e.targetType = :targetType', { targetType: filter.targetType });
    if (filter.targetId !== undefined) q.andWhere('e.targetId = :targetId', { targetId: filter.targetId });
    if (filter.accountId !== undefined) q.andWhere('e.accountId = :accountId', { accountId: filter.accountId });
    if (filter.fromMs !== undefined) q.andWhere('e.createdAt >= :fromMs', { fromMs: filter.fromMs });
    if (filter.toMs !== undefined) q.andWhere('e.createdAt < :toMs', { toMs: filter.toMs });
    if (beforeSeq !== undefined) q.andWhere('e.seq < :beforeSeq', { beforeSeq });
    return q.orderBy('e.seq', 'DESC').limit(take).getMany();
  }

  /** Up to `take` entries after chain position `afterSeq` and at most `lastSeq`, in chain order. */
  chainAfter(afterSeq: number, lastSeq: number, take: number): Promise<AuditEntryEntity[]> {
    return this.repo
      .createQueryBuilder('e')
      .where('e.seq > :afterSeq AND e.seq <= :lastSeq', { afterSeq, lastSeq })
      .orderBy('e.seq', 'ASC')
      .limit(take)
      .getMany();
  }

  async head(): Promise<ChainHead> {
    const head = await this.heads.findOneByOrFail({ id: HEAD_ID });
    return { seq: head.seq, hash: head.hash };
  }
}
