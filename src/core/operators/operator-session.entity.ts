import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions } from '../../platform/database/columns';
import type { OperatorRole } from './operator-roles';

/**
 * A console sign-in through single sign-on: the person (as the issuer named them) and the role
 * their claim gave, until it expires. The cookie holds a random token; only its SHA-256 hash is kept.
 */
@Entity('operator_sessions')
export class OperatorSessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, name: 'token_hash' }) tokenHash: string;
  @Column({ type: 'varchar', length: 64, name: 'operator_id' }) operatorId: string;
  @Column({ type: 'varchar', length: 200, name: 'operator_name' }) operatorName: string;
  @Column({ type: 'varchar', length: 16 }) role: OperatorRole;
  /** Sent back by the console in `X-CSRF-Token` with every change it asks for. */
  @Column({ type: 'varchar', length: 64, name: 'csrf_token' }) csrfToken: string;
  @Column(BigIntColumnOptions({ name: 'created_at' })) createdAt: number;
  @Index('idx_operator_sessions_expires_at')
  @Column(BigIntColumnOptions({ name: 'expires_at' }))
  expiresAt: number;
}
