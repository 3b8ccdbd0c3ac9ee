import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { ChannelControl } from './channel-control.service';
import { ChannelSettingEntity } from './channel-setting.entity';
import { ChannelSettingsRepository } from './channel-settings.repository';

/** Run-time control of the upstream channels (the registry itself comes from the upstream wiring). */
@Module({
  imports: [TypeOrmModule.forFeature([ChannelSettingEntity]), AuditModule],
  providers: [ChannelSettingsRepository, ChannelControl],
  exports: [ChannelControl],
})
export class ChannelSettingsModule {}
