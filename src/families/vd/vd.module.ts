import { Module } from '@nestjs/common';
import { TasksModule } from '../../core/tasks/tasks.module';
import { IdempotencyGuard } from '../common/idempotency.guard';
import { VdReferenceVideoController } from './reference-video/vd-reference-video.controller';
import { FamilyTasksService } from '../common/family-tasks.service';

/** vd's HTTP face: its controller over the shared task service, on the task engine. */
@Module({
  imports: [TasksModule],
  controllers: [VdReferenceVideoController],
  providers: [FamilyTasksService, IdempotencyGuard],
})
export class VdModule {}
