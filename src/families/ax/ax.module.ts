import { Module } from '@nestjs/common';
import { TasksModule } from '../../core/tasks/tasks.module';
import { IdempotencyGuard } from '../common/idempotency.guard';
import { AxReferenceVideoController } from './reference-video/ax-reference-video.controller';
import { FamilyTasksService } from '../common/family-tasks.service';

/** ax's HTTP face: its controller over the shared task service, on the task engine. */
@Module({
  imports: [TasksModule],
  controllers: [AxReferenceVideoController],
  providers: [FamilyTasksService, IdempotencyGuard],
})
export class AxModule {}
