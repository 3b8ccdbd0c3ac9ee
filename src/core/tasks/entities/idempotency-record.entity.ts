import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions, JsonColumnOptions } from '../../../platform/database/columns';

/**
 * One `Idempotency-Key` of one account: tied to its task when the task is created, then the first response to replay
 * (24 h).
 */
@Entity('idempotency_records')
export class IdempotencyRecordEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, name: 'account_id' }) accountId: string;
  @PrimaryColumn({ type: 'varchar', length: 255, name: 'idem_key' }) key: string;
  @Column({ type: 'varchar', length: 64, name: 'request_hash' }) requestHash: string;
  @Column({ type: 'varchar', length: 16 }) state: 'in_flight' | 'done';
  @Column({ type: 'integer', name: 'response_status', nullable: true }) responseStatus: number | null;
  @Column(JsonColumnOptions({ name: 'response_body', nullable: true })) responseBody: unknown;
  @Column(JsonColumnOptions({ name: 'response_headers', nullable: true })) responseHeaders: Record<
    string,
    string
  > | null;
  /**
   * The task created under this key, written in the creation transaction (null: none yet, or a record of an older
   * version).
   */
  @Column({ type: 'varchar', length: 64, name: 'task_id', nullable: true }) taskId: string | null;
  @Column(BigIntColumnOptions({ name: 'created_at' })) createdAt: number;
  @Column(BigIntColumnOptions({ name: 'expires_at' })) expiresAt: number;
}
