import { Module, OnModuleInit } from '@nestjs/common';
import { TaskPresenters } from '../../../core/tasks/task-presenters';
import { TasksModule } from '../../../core/tasks/tasks.module';
import { IdempotencyInterceptor } from '../../common/idempotency.interceptor';
import { VD_ACTION, VdReferenceVideoController } from './vd-reference-video.controller';
import { presentVdCreations } from './vd-task.presenter';

@Module({ imports: [TasksModule], controllers: [VdReferenceVideoController], providers: [IdempotencyInterceptor] })
export class VdReferenceVideoModule implements OnModuleInit {
  constructor(private readonly presenters: TaskPresenters) {}

  onModuleInit(): void {
    this.presenters.register(VD_ACTION, presentVdCreations);
  }
}
