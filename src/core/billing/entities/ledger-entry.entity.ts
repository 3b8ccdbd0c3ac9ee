import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions } from '../../../platform/database/columns';

/**
 * Every movement of money is an entry. `amount` is always positive; the kind says which way.
 * One hold, one release and one charge per task at most (unique), which makes settlement
 * idempotent across workers and replayed callbacks.
 */
export type LedgerKind = 'credit' | 'debit' | 'hold' | 'release' | 'charge';

@Entity('ledger_entries')
@Index('idx_ledger_account', ['accountId', 'createdAt'])
@Index('uq_ledger_task_kind', ['taskId', 'kind'], { unique: true })
export class LedgerEntryEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 }) id: string;
  @Column({ type: 'varchar', length: 64, name: 'account_id' }) accountId: string;
  @Column({ type: 'varchar', length: 16 }) kind: LedgerKind;
  @Column(BigIntColumnOptions()) amount: number;
  @Column({ type: 'varchar', length: 64, name: 'task_id', nullable: true }) taskId: string | null;
  @Column({ type: 'text', nullable: true }) reason: string | null;
  @Column({ type: 'integer', name: 'price_version', nullable: true }) priceVersion: number | null;
  @Column(BigIntColumnOptions({ name: 'created_at' })) createdAt: number;
}
