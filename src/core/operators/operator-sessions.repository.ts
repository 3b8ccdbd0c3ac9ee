import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, LessThanOrEqual, Repository } from 'typeorm';
import { OperatorSessionEntity } from './operator-session.entity';

@Injectable()
export class OperatorSessionsRepository {
  constructor(@InjectRepository(OperatorSessionEntity) private readonly repo: Repository<OperatorSessionEntity>) {}

  findByHash(tokenHash: string): Promise<OperatorSessionEntity | null> {
    return this.repo.findOneBy({ tokenHash });
  }

  async insert(tx: EntityManager, session: OperatorSessionEntity): Promise<void> {
    await tx.getRepository(OperatorSessionEntity).insert(session);
  }

  async delete(tokenHash: string): Promise<void> {
    await this.repo.delete({ tokenHash });
  }

  /** Sessions expired at `nowMs`, gone. */
  async deleteExpired(tx: EntityManager, nowMs: number): Promise<void> {
    await tx.getRepository(OperatorSessionEntity).delete({ expiresAt: LessThanOrEqual(nowMs) });
  }
}
