import { EntityManager, Repository } from 'typeorm';
import { AuditChainHeadEntity } from '../../src/core/audit/audit-chain-head.entity';
import { AuditEntryEntity } from '../../src/core/audit/audit-entry.entity';
import { AuditRepository } from '../../src/core/audit/audit.repository';
import { AuditTrail } from '../../src/core/audit/audit.service';
import { ChangeOrigin } from '../../src/core/audit/audit.types';
import { Clock, ManualClock } from '../../src/platform/time/clock';
import { offlineManager } from './offline';

/** The chain in memory: entries appended in order, each with the manager of the transaction it was written in. */
export class InMemoryAuditRepository extends AuditRepository {
  readonly entries: AuditEntryEntity[] = [];
  readonly writtenIn: EntityManager[] = [];

  constructor() {
    super(new Repository(AuditEntryEntity, offlineManager), new Repository(AuditChainHeadEntity, offlineManager));
  }

  override async append(tx: EntityManager, entry: Parameters<AuditRepository['append']>[1]): Promise<AuditEntryEntity> {
    const previous = this.entries.at(-1);
    const row = Object.assign(new AuditEntryEntity(), entry, {
      seq: this.entries.length + 1,
      prevHash: previous?.hash ?? '0'.repeat(64),
      hash: String(this.entries.length + 1).padStart(64, '0'),
    });
    this.entries.push(row);
    this.writtenIn.push(tx);
    return row;
  }
}

/** The real audit trail (redaction, canonical JSON) over the in-memory chain; `entries` read back what it wrote. */
export function inMemoryAuditTrail(clock: Clock = new ManualClock()) {
  const repository = new InMemoryAuditRepository();
  const trail = new AuditTrail(repository, clock);
  return {
    trail,
    repository,
    /** Action, target and the parsed before/after of every entry, in order. */
    entries: () =>
      repository.entries.map((e) => ({
        action: e.action,
        target: { type: e.targetType, id: e.targetId, accountId: e.accountId },
        before: e.before === null ? null : (JSON.parse(e.before) as unknown),
        after: e.after === null ? null : (JSON.parse(e.after) as unknown),
      })),
  };
}

/** The bootstrap owner, making a change through the API. */
export const OWNER_ORIGIN: ChangeOrigin = {
  actor: { id: 'bootstrap', name: 'owner', role: 'owner' },
  requestId: 'req_1',
  ip: '127.0.0.1',
};
