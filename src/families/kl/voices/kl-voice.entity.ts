import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions } from '../../../platform/database/columns';

/** `pending` while the upstream deletion call is in flight; `deleted` once the upstream confirmed it. */
export type KlVoiceDeleteState = 'pending' | 'deleted';

/**
 * A custom voice the gateway has acted on (today: its deletion), owned by the account whose
 * succeeded `custom_voices` task produced it. The row is the claim that makes "delete once" hold
 * under a race: only the caller whose conditional update set `delete_task_id` talks to the upstream.
 */
@Entity('kl_voices')
@Index('idx_kl_voices_account_task', ['accountId', 'taskId'])
export class KlVoiceEntity {
  /** The gateway's public voice ID (`voice_<task>_<n>`). */
  @PrimaryColumn({ type: 'varchar', length: 100 }) id: string;
  @Column({ type: 'varchar', length: 64, name: 'account_id' }) accountId: string;
  @Column({ type: 'varchar', length: 64, name: 'task_id' }) taskId: string;
  @Column({ type: 'integer', name: 'voice_index' }) voiceIndex: number;
  /** The upstream's own voice ID; never shown to callers. */
  @Column({ type: 'varchar', length: 200, name: 'upstream_voice_id' }) upstreamVoiceId: string;
  /** The public ID of the delete operation (its answer's `task_id`); set by the one caller that claimed the deletion. */
  @Column({ type: 'varchar', length: 64, name: 'delete_task_id', nullable: true }) deleteTaskId: string | null;
  @Column({ type: 'varchar', length: 16, name: 'delete_state', nullable: true }) deleteState: KlVoiceDeleteState | null;
  @Column(BigIntColumnOptions({ name: 'deleted_at', nullable: true })) deletedAt: number | null;
  @Column(BigIntColumnOptions({ name: 'created_at' })) createdAt: number;
  @Column(BigIntColumnOptions({ name: 'updated_at' })) updatedAt: number;
}
