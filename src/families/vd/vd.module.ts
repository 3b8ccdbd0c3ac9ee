import { Module } from '@nestjs/common';
import { TasksModule } from '../../core/tasks/tasks.module';
import { IdempotencyGuard } from '../common/idempotency.guard';
import { VdReferenceVideoController } from './reference-video/vd-reference-video.controller';
import { VdReferenceVideoService } from './reference-video/vd-reference-video.service';

/** Family C's HTTP face: its controller over its service, on the task engine. */
@Module({
  imports: [TasksModule],
  controllers: [VdReferenceVideoController],
  providers: [VdReferenceVideoService, IdempotencyGuard],
})
export class VdModule {}
