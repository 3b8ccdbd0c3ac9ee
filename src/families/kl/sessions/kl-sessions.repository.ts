import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { insertRow } from '../../../platform/database/insert-row';
import { KlMarks, KlSessionEntity } from './kl-session.entity';

/** Queries of kl session records; every read is scoped to the owning account. */
@Injectable()
export class KlSessionsRepository {
  constructor(@InjectRepository(KlSessionEntity) private readonly repo: Repository<KlSessionEntity>) {}

  async insert(session: KlSessionEntity): Promise<void> {
    await insertRow(this.repo.manager, KlSessionEntity, session);
  }

  findForAccount(id: string, accountId: string): Promise<KlSessionEntity | null> {
    return this.repo.findOne({ where: { id, accountId } });
  }

  /**
   * Takes the session's lease for `token` until `until`, if nobody holds it or the holder's lease
   * ran out. One conditional UPDATE, atomic on SQLite and PostgreSQL alike, so of racing callers
   * (on any instance) exactly one gets it.
   */
  async acquireLease(id: string, token: string, now: number, until: number): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update(KlSessionEntity)
      .set({ leaseToken: token, leaseUntil: until })
      .where('id = :id AND (lease_until IS NULL OR lease_until <= :now)', { id, now })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  /** Gives the lease back, if `token` still holds it. */
  async releaseLease(id: string, token: string): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .update(KlSessionEntity)
      .set({ leaseToken: null, leaseUntil: null })
      .where('id = :id AND lease_token = :token', { id, token })
      .execute();
  }

  /** The marks the upstream now holds, written by the lease holder after its upstream call. */
  async recordMarks(id: string, marks: KlMarks, now: number): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .update(KlSessionEntity)
      .set({ marks: marks as never, version: () => 'version + 1', updatedAt: now })
      .where('id = :id', { id })
      .execute();
  }
}
