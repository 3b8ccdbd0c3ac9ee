import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingModule } from '../../core/billing/billing.module';
import { TasksModule } from '../../core/tasks/tasks.module';
import { IdempotencyGuard } from '../common/idempotency.guard';
import { REMOTE_MEDIA_PROBE } from '../common/media-probe-remote';
import { KlEditingController } from './editing/kl-editing.controller';
import { KlEditingService } from './editing/kl-editing.service';
import { KlSessionEntity } from './sessions/kl-session.entity';
import { KlSessionsController } from './sessions/kl-sessions.controller';
import { KlSessionsRepository } from './sessions/kl-sessions.repository';
import { KlSessionsService } from './sessions/kl-sessions.service';
import { KlPresetsService } from './voices/kl-presets.service';
import { KlVoiceEntity } from './voices/kl-voice.entity';
import { KlVoicesController } from './voices/kl-voices.controller';
import { KlVoicesRepository } from './voices/kl-voices.repository';
import { KlVoicesService } from './voices/kl-voices.service';

/** kl's HTTP face: sessions, editing tasks and voices, each a controller over its service. */
@Module({
  imports: [
    TasksModule,
    BillingModule,
    TypeOrmModule.forFeature([KlSessionEntity]),
    TypeOrmModule.forFeature([KlVoiceEntity]),
  ],
  controllers: [KlSessionsController, KlEditingController, KlVoicesController],
  providers: [
    IdempotencyGuard,
    KlSessionsService,
    KlSessionsRepository,
    KlEditingService,
    REMOTE_MEDIA_PROBE,
    KlVoicesService,
    KlVoicesRepository,
    KlPresetsService,
  ],
})
export class KlModule {}
