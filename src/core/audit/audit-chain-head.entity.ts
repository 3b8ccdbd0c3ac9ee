import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The end of the audit chain, one row (`id` 1): the last entry's position and hash. */
@Entity('audit_chain_head')
export class AuditChainHeadEntity {
  @PrimaryColumn({ type: 'integer' }) id: number;
  @Column({ type: 'integer' }) seq: number;
  @Column({ type: 'varchar', length: 64 }) hash: string;
}
