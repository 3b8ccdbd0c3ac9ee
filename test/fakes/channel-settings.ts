import { Repository } from 'typeorm';
import { ChannelSettingEntity } from '../../src/core/channel-settings/channel-setting.entity';
import { ChannelSettingsRepository } from '../../src/core/channel-settings/channel-settings.repository';
import { offline, offlineManager } from './offline';

/** Operators' channel settings in memory, and the open tasks per channel as the tasks table would count them. */
export class InMemoryChannelSettings extends ChannelSettingsRepository {
  readonly rows = new Map<string, ChannelSettingEntity>();
  openTasks = new Map<string, number>();

  constructor(...settings: ChannelSettingEntity[]) {
    super(new Repository(ChannelSettingEntity, offlineManager), offline);
    for (const setting of settings) this.rows.set(setting.channelId, { ...setting });
  }

  override async all(): Promise<ChannelSettingEntity[]> {
    return [...this.rows.values()].map((row) => ({ ...row }));
  }

  override async findById(channelId: string): Promise<ChannelSettingEntity | null> {
    const row = this.rows.get(channelId);
    return row ? { ...row } : null;
  }

  override async save(setting: ChannelSettingEntity): Promise<void> {
    this.rows.set(setting.channelId, { ...setting });
  }

  override async openTasksByChannel(): Promise<Map<string, number>> {
    return new Map(this.openTasks);
  }
}
