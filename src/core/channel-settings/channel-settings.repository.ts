import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { ChannelSettingEntity } from './channel-setting.entity';

/** The operators' run-time channel changes, and the open-task count per channel they are judged against. */
@Injectable()
export class ChannelSettingsRepository {
  constructor(
    @InjectRepository(ChannelSettingEntity) private readonly repo: Repository<ChannelSettingEntity>,
    private readonly dataSource: DataSource,
  ) {}

  all(): Promise<ChannelSettingEntity[]> {
    return this.repo.find();
  }

  findById(channelId: string, tx?: EntityManager): Promise<ChannelSettingEntity | null> {
    return (tx ? tx.getRepository(ChannelSettingEntity) : this.repo).findOneBy({ channelId });
  }

  async save(setting: ChannelSettingEntity, tx?: EntityManager): Promise<void> {
    await (tx ? tx.getRepository(ChannelSettingEntity) : this.repo).upsert(setting, ['channelId']);
  }

  /** Tasks created and not yet ended, per channel, across every instance. */
  async openTasksByChannel(): Promise<Map<string, number>> {
    const rows: Array<{ channel_id: string; n: string | number }> = await this.dataSource.query(
      `SELECT "channel_id", COUNT(*) AS "n" FROM "tasks" WHERE "phase" IN ('submitting', 'active') GROUP BY "channel_id"`,
    );
    return new Map(rows.map((row) => [row.channel_id, Number(row.n)]));
  }
}
