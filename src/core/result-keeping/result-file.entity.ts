import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions } from '../../platform/database/columns';

/**
 * pending: to be downloaded (or being downloaded, under a lease) -> stored | failed | skipped
 * (not kept: too large, wrong type, store full) -> removed (stored, then past retention).
 */
export type ResultFileStatus = 'pending' | 'stored' | 'failed' | 'skipped' | 'removed';

/**
 * One file a finished task shows its client, and the gateway's copy of it: a durable download
 * queue row (leased like the sync worker's tasks) that becomes the record of the kept copy.
 */
@Entity('result_files')
@Index('idx_result_files_task', ['taskId'])
export class ResultFileEntity {
  /** `<task id>.<slot>`: the gateway's own names only. */
  @PrimaryColumn({ type: 'varchar', length: 100 }) id: string;
  @Column({ type: 'varchar', length: 64, name: 'task_id' }) taskId: string;
  @Column({ type: 'varchar', length: 64, name: 'account_id' }) accountId: string;
  /** Which file of the task (see `result-slots.ts`). */
  @Column({ type: 'varchar', length: 16 }) slot: string;
  /** Where the upstream serves it (expires; never shown to a client). */
  @Column({ type: 'text', name: 'upstream_url' }) upstreamUrl: string;
  @Column({ type: 'varchar', length: 16 }) status: ResultFileStatus;
  @Column({ type: 'integer', default: 0 }) attempts: number;
  /** When the keep worker should try next; null once no download is due, so its scans see pending rows only. */
  @Index('idx_result_files_due')
  @Column(BigIntColumnOptions({ name: 'next_attempt_at', nullable: true }))
  nextAttemptAt: number | null;
  @Column({ type: 'varchar', length: 64, name: 'lease_owner', nullable: true }) leaseOwner: string | null;
  @Column(BigIntColumnOptions({ name: 'lease_until', nullable: true })) leaseUntil: number | null;
  /** Where the copy is in the object store. */
  @Column({ type: 'varchar', length: 255, name: 'storage_key', nullable: true }) storageKey: string | null;
  @Column(BigIntColumnOptions({ name: 'size_bytes', nullable: true })) sizeBytes: number | null;
  @Column({ type: 'varchar', length: 100, name: 'content_type', nullable: true }) contentType: string | null;
  @Column({ type: 'text', name: 'last_error', nullable: true }) lastError: string | null;
  /** The task's stored `traceparent`, so a download joins the task's trace on any instance. */
  @Column({ type: 'varchar', length: 55, name: 'trace_context', nullable: true }) traceContext: string | null;
  @Column(BigIntColumnOptions({ name: 'stored_at', nullable: true })) storedAt: number | null;
  /** When retention removes the copy; set while stored, null otherwise (the sweeper scans stored rows only). */
  @Index('idx_result_files_expiry')
  @Column(BigIntColumnOptions({ name: 'expires_at', nullable: true }))
  expiresAt: number | null;
  @Column(BigIntColumnOptions({ name: 'created_at' })) createdAt: number;
  @Column(BigIntColumnOptions({ name: 'updated_at' })) updatedAt: number;
}
