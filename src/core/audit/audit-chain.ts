import { hash } from 'crypto';
import type { AuditEntryEntity } from './audit-entry.entity';

/** The `prev_hash` of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** An entry's recorded content: every column but its own hash. */
export type ChainedContent = Omit<AuditEntryEntity, 'hash'>;

/**
 * SHA-256 over the entry's content in a fixed field order (JSON of an array, so no key order or
 * separator can make two different contents read the same).
 */
export function entryHash(entry: ChainedContent): string {
  const fields = [
    entry.seq,
    entry.id,
    entry.createdAt,
    entry.actorId,
    entry.actorName,
    entry.actorRole,
    entry.action,
    entry.targetType,
    entry.targetId,
    entry.accountId,
    entry.before,
    entry.after,
    entry.requestId,
    entry.ip,
    entry.prevHash,
  ];
  return hash('sha256', JSON.stringify(fields), 'hex');
}

/**
 * JSON text with object keys sorted at every depth: the same value always gives the same text,
 * whichever order its fields were built in.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

export interface ChainProblem {
  seq: number;
  entry_id: string | null;
  problem: string;
}

/** Where the chain ends, as the chain head row records it. */
export interface ChainHead {
  seq: number;
  hash: string;
}

/**
 * Checks entries fed in chain order, a batch at a time: numbering without gaps, each row linked to
 * the one before and matching its own hash, and the last one matching the chain head row. The head
 * row lives beside the entries, so whoever can rewrite the database can cut the newest entries and
 * rewind the head with them: only a head recorded earlier, somewhere else (`recorded`), catches that.
 */
export class ChainVerifier {
  readonly problems: ChainProblem[] = [];
  checked = 0;
  private seq = 0;
  private hash = GENESIS_HASH;

  constructor(private readonly recorded?: ChainHead) {}

  add(entries: readonly AuditEntryEntity[]): void {
    for (const entry of entries) {
      this.checked += 1;
      if (entry.seq !== this.seq + 1) this.report(this.seq + 1, null, missing(this.seq + 1, entry.seq - 1));
      else if (entry.prevHash !== this.hash)
        this.report(entry.seq, entry.id, 'does not link to the entry before it (that entry was changed)');
      if (entryHash(entry) !== entry.hash) this.report(entry.seq, entry.id, 'its content does not match its hash');
      if (entry.seq === this.recorded?.seq && entry.hash !== this.recorded.hash)
        this.report(entry.seq, entry.id, 'differs from the head recorded earlier (the chain was rewritten)');
      this.seq = entry.seq;
      this.hash = entry.hash;
    }
  }

  finish(head: ChainHead): ChainProblem[] {
    if (head.seq > this.seq) this.report(this.seq + 1, null, missing(this.seq + 1, head.seq));
    else if (head.seq < this.seq || head.hash !== this.hash)
      this.report(this.seq, null, 'the chain head does not match the last entry');
    if (this.recorded && this.recorded.seq > this.seq)
      this.report(
        this.seq + 1,
        null,
        `the chain ends before the head recorded earlier (${this.recorded.seq}): the newest entries were removed`,
      );
    return this.problems;
  }

  private report(seq: number, entryId: string | null, problem: string): void {
    this.problems.push({ seq, entry_id: entryId, problem });
  }
}

function missing(from: number, to: number): string {
  return from === to ? `entry ${from} is missing` : `entries ${from} to ${to} are missing`;
}
