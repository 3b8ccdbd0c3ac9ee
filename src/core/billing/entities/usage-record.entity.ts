import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions, JsonColumnOptions } from '../../../platform/database/columns';

/** The usage log: one row per charged task; what the customer is actually billed. */
@Entity('usage_records')
@Index('idx_usage_account_created', ['accountId', 'createdAt'])
@Index('idx_usage_created', ['createdAt'])
@Index('idx_usage_model_created', ['model', 'createdAt'])
export class UsageRecordEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 }) id: string;
  @Index('uq_usage_task', { unique: true }) @Column({ type: 'varchar', length: 64, name: 'task_id' }) taskId: string;
  @Column({ type: 'varchar', length: 64, name: 'account_id' }) accountId: string;
  @Column({ type: 'varchar', length: 100 }) model: string;
  @Column({ type: 'varchar', length: 32 }) action: string;
  @Column(BigIntColumnOptions()) amount: number;
  @Column({ type: 'integer', name: 'price_version' }) priceVersion: number;
  @Column(JsonColumnOptions()) usage: Record<string, unknown>;
  @Column(BigIntColumnOptions({ name: 'created_at' })) createdAt: number;
}
