import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions } from '../../../platform/database/columns';

@Entity('accounts')
export class AccountEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 }) id: string;
  @Column({ type: 'varchar', length: 200 }) name: string;
  /** Available balance in price units: credits - charges - open holds. */
  @Column(BigIntColumnOptions({ default: 0 })) balance: number;
  /** Sum of open holds. */
  @Column(BigIntColumnOptions({ default: 0 })) held: number;
  @Column({ type: 'boolean', default: false }) disabled: boolean;
  @Column({ type: 'integer', name: 'rate_limit_rpm', nullable: true }) rateLimitRpm: number | null;
  @Column({ type: 'integer', name: 'max_concurrent_tasks', nullable: true }) maxConcurrentTasks: number | null;
  /** Tasks accepted and not yet terminal; capped atomically by max_concurrent_tasks. */
  @Column({ type: 'integer', name: 'in_flight_tasks', default: 0 }) inFlightTasks: number;
  @Column({ type: 'varchar', length: 100, name: 'webhook_secret' }) webhookSecret: string;
  @Column(BigIntColumnOptions({ name: 'created_at' })) createdAt: number;
  @Column(BigIntColumnOptions({ name: 'updated_at' })) updatedAt: number;
}
