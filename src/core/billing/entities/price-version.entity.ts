import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions, JsonColumnOptions } from '../../../platform/database/columns';

/** Every pricing table ever in force; the highest version is current. Charges record theirs. */
@Entity('price_versions')
export class PriceVersionEntity {
  @PrimaryColumn({ type: 'integer' }) version: number;
  @Column(JsonColumnOptions()) table: Record<string, unknown>;
  @Column(BigIntColumnOptions({ name: 'created_at' })) createdAt: number;
}
