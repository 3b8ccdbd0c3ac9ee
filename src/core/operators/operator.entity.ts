import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions } from '../../platform/database/columns';
import type { OperatorRole } from './operator-roles';

/** A person who runs the gateway: a role, and a token of which only the SHA-256 hash and a prefix are kept. */
@Entity('operators')
export class OperatorEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 }) id: string;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'varchar', length: 16 }) role: OperatorRole;
  @Column({ type: 'boolean', default: false }) disabled: boolean;
  @Column({ type: 'varchar', length: 32, name: 'token_prefix' }) tokenPrefix: string;
  @Index('uq_operators_token_hash', { unique: true })
  @Column({ type: 'varchar', length: 64, name: 'token_hash' })
  tokenHash: string;
  @Column(BigIntColumnOptions({ name: 'created_at' })) createdAt: number;
  @Column(BigIntColumnOptions({ name: 'updated_at' })) updatedAt: number;
}
