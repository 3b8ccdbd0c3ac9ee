import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions } from '../../platform/database/columns';

/**
 * One recorded admin change. Rows are only ever inserted; each carries the hash of the row before
 * it (`prev_hash`) and its own (`hash`, over `prev_hash` and its content), so a row changed or
 * removed afterwards breaks the chain (`npm run audit:verify`). `before`/`after` are kept as the
 * exact JSON text that was hashed.
 */
@Entity('audit_entries')
@Index('idx_audit_entries_at', ['createdAt', 'id'])
@Index('idx_audit_entries_target', ['targetType', 'targetId'])
export class AuditEntryEntity {
  /** Position in the chain: 1, 2, 3… with no gap. */
  @PrimaryColumn({ type: 'integer' }) seq: number;
  @Index('uq_audit_entries_id', { unique: true }) @Column({ type: 'varchar', length: 64 }) id: string;
  @Column(BigIntColumnOptions({ name: 'at' })) createdAt: number;
  @Index('idx_audit_entries_actor') @Column({ type: 'varchar', length: 64, name: 'actor_id' }) actorId: string;
  @Column({ type: 'varchar', length: 200, name: 'actor_name' }) actorName: string;
  @Column({ type: 'varchar', length: 16, name: 'actor_role' }) actorRole: string;
  @Index('idx_audit_entries_action') @Column({ type: 'varchar', length: 64 }) action: string;
  @Column({ type: 'varchar', length: 32, name: 'target_type' }) targetType: string;
  @Column({ type: 'varchar', length: 128, name: 'target_id' }) targetId: string;
  /** The account the change concerns (an account's own change, or one of its keys'), else null. */
  @Index('idx_audit_entries_account')
  @Column({ type: 'varchar', length: 64, name: 'account_id', nullable: true })
  accountId: string | null;
  @Column({ type: 'text', nullable: true }) before: string | null;
  @Column({ type: 'text', nullable: true }) after: string | null;
  @Column({ type: 'varchar', length: 64, name: 'request_id', nullable: true }) requestId: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) ip: string | null;
  @Column({ type: 'varchar', length: 64, name: 'prev_hash' }) prevHash: string;
  @Column({ type: 'varchar', length: 64 }) hash: string;
}
