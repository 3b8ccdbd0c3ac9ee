import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BigIntColumnOptions } from '../../platform/database/columns';

/** An operator's run-time change to one upstream channel; null fields keep the configured value. */
@Entity('channel_settings')
export class ChannelSettingEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, name: 'channel_id' }) channelId: string;
  @Column({ type: 'boolean', nullable: true }) enabled: boolean | null;
  @Column({ type: 'integer', nullable: true }) weight: number | null;
  @Column({ type: 'integer', nullable: true }) priority: number | null;
  @Column(BigIntColumnOptions({ name: 'updated_at' })) updatedAt: number;
}
