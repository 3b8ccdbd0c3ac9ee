import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions, JsonColumnOptions } from '../../../platform/database/columns';

/** An API key: only its SHA-256 hash and a display prefix are stored, never the secret. */
@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 }) id: string;
  @Index('idx_api_keys_account') @Column({ type: 'varchar', length: 64, name: 'account_id' }) accountId: string;
  @Column({ type: 'varchar', length: 200, nullable: true }) name: string | null;
  @Column({ type: 'varchar', length: 32 }) prefix: string;
  @Index('uq_api_keys_hash', { unique: true })
  @Column({ type: 'varchar', length: 64, name: 'key_hash' })
  keyHash: string;
  /** Optional restriction to some models; null means every model the account has. */
  @Column(JsonColumnOptions({ nullable: true })) models: string[] | null;
  @Column(BigIntColumnOptions({ name: 'created_at' })) createdAt: number;
  @Column(BigIntColumnOptions({ name: 'last_used_at', nullable: true })) lastUsedAt: number | null;
  @Column(BigIntColumnOptions({ name: 'expires_at', nullable: true })) expiresAt: number | null;
  @Column(BigIntColumnOptions({ name: 'revoked_at', nullable: true })) revokedAt: number | null;
}
