import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions, JsonColumnOptions } from '../../../platform/database/columns';
import type { UpstreamVideo, UpstreamVoice } from '../../../upstream/upstream.types';
import type { FamilyId } from '../../models/model-catalogue';
import type { BillableUsage } from '../../billing/billable-usage';

/**
 * The gateway's life cycle of a task, independent of any family:
 * submitting (persisted, upstream call not confirmed) -> active (upstream accepted) ->
 * succeeded | failed | cancelled; rejected when the upstream refused the create call.
 */
export type TaskPhase = 'submitting' | 'active' | 'succeeded' | 'failed' | 'cancelled' | 'rejected';

export type BillingState = 'held' | 'settled' | 'released';

/** kl list-item outer status. */
export type OuterStatus = 'NOT_START' | 'SUBMITTED' | 'QUEUED' | 'IN_PROGRESS' | 'FAILURE' | 'SUCCESS' | 'UNKNOWN';

export interface TaskResult {
  videos: UpstreamVideo[];
  voices: UpstreamVoice[];
}

@Entity('tasks')
@Index('idx_tasks_account_action_created', ['accountId', 'action', 'createdAt'])
@Index('uq_tasks_account_external', ['accountId', 'externalTaskId'], { unique: true })
@Index('idx_tasks_billing_finished', ['billingState', 'finishedAt'])
@Index('idx_tasks_account_phase', ['accountId', 'phase'])
@Index('uq_tasks_callback_token', ['callbackToken'], { unique: true, where: '"callback_token" IS NOT NULL' })
export class TaskEntity {
  /** Public ID minted by the gateway; the only ID callers ever see. */
  @PrimaryColumn({ type: 'varchar', length: 64 }) id: string;
  @Column({ type: 'varchar', length: 64, name: 'account_id' }) accountId: string;
  @Column({ type: 'varchar', length: 64, name: 'api_key_id', nullable: true }) apiKeyId: string | null;
  @Column({ type: 'varchar', length: 8 }) family: FamilyId;
  /** What kind of task within its family: `reference2video` (B, C), `multi_elements`, `custom_voices` (A). */
  @Column({ type: 'varchar', length: 32 }) action: string;
  @Column({ type: 'varchar', length: 100 }) model: string;
  @Column({ type: 'varchar', length: 100, name: 'channel_id' }) channelId: string;
  @Index('idx_tasks_upstream')
  @Column({ type: 'varchar', length: 200, name: 'upstream_task_id', nullable: true })
  upstreamTaskId: string | null;
  @Column({ type: 'varchar', length: 16 }) phase: TaskPhase;
  /** The family's own status word as last seen (or as set by the gateway when it ended the task). */
  @Column({ type: 'varchar', length: 32, name: 'native_status' }) nativeStatus: string;
  @Column({ type: 'varchar', length: 16, name: 'outer_status' }) outerStatus: OuterStatus;
  @Column({ type: 'integer', default: 0 }) progress: number;
  @Column({ type: 'varchar', length: 100, name: 'failure_code', nullable: true }) failureCode: string | null;
  @Column({ type: 'text', name: 'failure_reason', nullable: true }) failureReason: string | null;
  /** The request as sent upstream, with Base64 payloads replaced by placeholders. */
  @Column(JsonColumnOptions({ name: 'request_snapshot' })) requestSnapshot: Record<string, unknown>;
  /** What the creation response echoed (vd shows it again). */
  @Column(JsonColumnOptions({ name: 'creation_echo', nullable: true })) creationEcho: Record<string, unknown> | null;
  @Column(JsonColumnOptions({ nullable: true })) result: TaskResult | null;
  @Column(JsonColumnOptions({ name: 'last_native', nullable: true })) lastNative: unknown;
  @Column(JsonColumnOptions({ name: 'native_usage', nullable: true })) nativeUsage: Record<string, unknown> | null;
  @Column({ type: 'varchar', length: 255, name: 'external_task_id', nullable: true }) externalTaskId: string | null;
  @Column({ type: 'text', name: 'callback_url', nullable: true }) callbackUrl: string | null;
  /** Unguessable token in the gateway's own upstream callback URL. */
  @Column({ type: 'varchar', length: 64, name: 'callback_token', nullable: true }) callbackToken: string | null;
  @Column(JsonColumnOptions({ name: 'billable_usage' })) billableUsage: BillableUsage;
  /** held -> settled | released; the conditional switch away from `held` is what makes settlement happen once. */
  @Column({ type: 'varchar', length: 16, name: 'billing_state', default: 'held' }) billingState: BillingState;
  @Column(BigIntColumnOptions({ name: 'estimated_charge', default: 0 })) estimatedCharge: number;
  @Column(BigIntColumnOptions({ name: 'final_charge', nullable: true })) finalCharge: number | null;
  @Column({ type: 'integer', name: 'price_version', nullable: true }) priceVersion: number | null;
  @Column(BigIntColumnOptions({ name: 'created_at' })) createdAt: number;
  @Column(BigIntColumnOptions({ name: 'updated_at' })) updatedAt: number;
  @Column(BigIntColumnOptions({ name: 'finished_at', nullable: true })) finishedAt: number | null;
  /** When the sync worker should look next; null once terminal, so due-task scans never see finished tasks. */
  @Index('idx_tasks_sync_due') @Column(BigIntColumnOptions({ name: 'sync_due_at', nullable: true })) syncDueAt:
    number | null;
  @Column({ type: 'integer', name: 'sync_attempts', default: 0 }) syncAttempts: number;
  @Column({ type: 'varchar', length: 64, name: 'lease_owner', nullable: true }) leaseOwner: string | null;
  @Column(BigIntColumnOptions({ name: 'lease_until', nullable: true })) leaseUntil: number | null;
  @Column(BigIntColumnOptions({ name: 'deadline_at' })) deadlineAt: number;
  /** When the owner deleted the task (ms): from then on no client read shows it. Null while it is not deleted. */
  @Column(BigIntColumnOptions({ name: 'deleted_at', nullable: true })) deletedAt: number | null;
  /** W3C `traceparent` of the creating request's span: the task's later spans join its trace. Null with tracing off. */
  @Column({ type: 'varchar', length: 55, name: 'trace_context', nullable: true }) traceContext: string | null;
}
