import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newId } from '../../platform/ids/ids';
import { Clock } from '../../platform/time/clock';
import { ChainHead, ChainProblem, ChainVerifier, canonicalJson } from './audit-chain';
import { AuditEntryEntity } from './audit-entry.entity';
import { redactSecrets } from './audit-redaction';
import { AuditFilter, AuditRepository } from './audit.repository';
import { AuditChange, ChangeOrigin } from './audit.types';

const VERIFY_BATCH = 1000;

export interface AuditVerification {
  ok: boolean;
  entries_checked: number;
  problems: ChainProblem[];
  /** The chain head now: record it elsewhere, and a later verification against it proves nothing was cut. */
  head: ChainHead;
}

/**
 * The audit trail: one entry per admin change, written by the service making the change in that
 * change's own transaction (so a change is never without its entry, nor an entry without its
 * change), secrets redacted, chained by hash. Nothing here changes or removes an entry.
 */
@Injectable()
export class AuditTrail {
  constructor(
    private readonly entries: AuditRepository,
    private readonly clock: Clock,
  ) {}

  /** Appends the entry of `change`, made by `origin`, inside `tx`; call it after the change's own writes. */
  record(tx: EntityManager, origin: ChangeOrigin, change: AuditChange): Promise<AuditEntryEntity> {
    return this.entries.append(tx, {
      id: newId('aud'),
      createdAt: this.clock.nowMs(),
      actorId: origin.actor.id,
      actorName: origin.actor.name,
      actorRole: origin.actor.role,
      action: change.action,
      targetType: change.target.type,
      targetId: change.target.id,
      accountId: change.target.accountId ?? (change.target.type === 'account' ? change.target.id : null),
      before: snapshot(change.before),
      after: snapshot(change.after),
      requestId: origin.requestId,
      ip: origin.ip,
    });
  }

  /** Newest first, before chain position `beforeSeq` (a previous page's last entry) when given. */
  page(filter: AuditFilter, beforeSeq: number | undefined, take: number): Promise<AuditEntryEntity[]> {
    return this.entries.page(filter, beforeSeq, take);
  }

  /**
   * Walks the whole chain: every entry present, unchanged and linked, up to the chain head as read
   * first (entries appended meanwhile are left for the next run).
   */
  async verify(recorded?: ChainHead): Promise<AuditVerification> {
    const verifier = new ChainVerifier(recorded);
    const head = await this.entries.head();
    for (let after = 0; ;) {
      const batch = await this.entries.chainAfter(after, head.seq, VERIFY_BATCH);
      if (batch.length === 0) break;
      verifier.add(batch);
      after = batch[batch.length - 1].seq;
    }
    const problems = verifier.finish(head);
    return {
      ok: problems.length === 0,
      entries_checked: verifier.checked,
      problems,
      head: { seq: head.seq, hash: head.hash },
    };
  }
}

function snapshot(value: unknown): string | null {
  return value === null || value === undefined ? null : canonicalJson(redactSecrets(value));
}
