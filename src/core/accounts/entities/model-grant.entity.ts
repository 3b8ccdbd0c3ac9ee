import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions, JsonColumnOptions } from '../../../platform/database/columns';
import { Capability } from '../../models/model-catalogue';

/** A model enabled for an account, with the capabilities (endpoint groups) it may use. */
@Entity('model_grants')
@Index('uq_model_grants_account_model', ['accountId', 'model'], { unique: true })
export class ModelGrantEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 }) id: string;
  @Column({ type: 'varchar', length: 64, name: 'account_id' }) accountId: string;
  @Column({ type: 'varchar', length: 100 }) model: string;
  @Column(JsonColumnOptions()) capabilities: Capability[];
  @Column(BigIntColumnOptions({ name: 'created_at' })) createdAt: number;
}
