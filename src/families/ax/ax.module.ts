import { Module } from '@nestjs/common';
import { TasksModule } from '../../core/tasks/tasks.module';
import { IdempotencyGuard } from '../common/idempotency.guard';
import { AxReferenceVideoController } from './reference-video/ax-reference-video.controller';
import { AxReferenceVideoService } from './reference-video/ax-reference-video.service';

/** Family B's HTTP face: its controller over its service, on the task engine. */
@Module({
  imports: [TasksModule],
  controllers: [AxReferenceVideoController],
  providers: [AxReferenceVideoService, IdempotencyGuard],
})
export class AxModule {}
