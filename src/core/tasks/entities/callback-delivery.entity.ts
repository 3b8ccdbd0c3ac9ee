import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions } from '../../../platform/database/columns';

/** A client callback waiting to be delivered (an outbox row, so a restart loses none). */
@Entity('callback_deliveries')
export class CallbackDeliveryEntity {
  /** Also the `webhook-id`, stable across retries so receivers can de-duplicate. */
  @PrimaryColumn({ type: 'varchar', length: 64 }) id: string;
  @Column({ type: 'varchar', length: 64, name: 'task_id' }) taskId: string;
  @Column({ type: 'varchar', length: 64, name: 'account_id' }) accountId: string;
  @Column({ type: 'text' }) url: string;
  @Column({ type: 'text' }) body: string;
  @Column({ type: 'varchar', length: 16 }) status: 'pending' | 'delivered' | 'failed';
  @Column({ type: 'integer', default: 0 }) attempts: number;
  @Index('idx_callbacks_due') @Column(BigIntColumnOptions({ name: 'next_attempt_at', nullable: true })) nextAttemptAt:
    number | null;
  @Column({ type: 'text', name: 'last_error', nullable: true }) lastError: string | null;
  @Column(BigIntColumnOptions({ name: 'created_at' })) createdAt: number;
  @Column(BigIntColumnOptions({ name: 'updated_at' })) updatedAt: number;
  /** The task's `traceparent`, so the delivery's span joins the task's trace. */
  @Column({ type: 'varchar', length: 55, name: 'trace_context', nullable: true }) traceContext: string | null;
}
