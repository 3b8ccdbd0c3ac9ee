import { EntityManager, Repository } from 'typeorm';
import { OperatorSessionEntity } from '../../src/core/operators/operator-session.entity';
import { OperatorSessionsRepository } from '../../src/core/operators/operator-sessions.repository';
import { offlineManager } from './offline';

/** Console sign-in sessions in memory, by token hash. */
export class InMemoryOperatorSessions extends OperatorSessionsRepository {
  readonly rows = new Map<string, OperatorSessionEntity>();

  constructor() {
    super(new Repository(OperatorSessionEntity, offlineManager));
  }

  override async findByHash(tokenHash: string): Promise<OperatorSessionEntity | null> {
    const row = this.rows.get(tokenHash);
    return row ? { ...row } : null;
  }

  override async insert(_tx: EntityManager, session: OperatorSessionEntity): Promise<void> {
    this.rows.set(session.tokenHash, { ...session });
  }

  override async delete(tokenHash: string): Promise<void> {
    this.rows.delete(tokenHash);
  }

  override async deleteExpired(_tx: EntityManager, nowMs: number): Promise<void> {
    for (const [hash, row] of this.rows) if (row.expiresAt <= nowMs) this.rows.delete(hash);
  }
}
