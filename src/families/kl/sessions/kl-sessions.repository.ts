import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { insertRow } from '../../../platform/database/insert-row';
import { KlMarks, KlSessionEntity } from './kl-session.entity';

/** Queries of family A session records; every read is scoped to the owning account. */
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
   * Compare-and-set of the marks: writes only if nobody changed the session since `version` was
   * read. One conditional UPDATE, atomic on SQLite and PostgreSQL alike, so of two racing writers
   * exactly one wins and the other re-reads.
   */
  async replaceMarks(id: string, version: number, marks: KlMarks, now: number): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update(KlSessionEntity)
      .set({ marks: marks as never, version: () => 'version + 1', updatedAt: now })
      .where('id = :id AND version = :version', { id, version })
      .execute();
    return (result.affected ?? 0) === 1;
  }
}
