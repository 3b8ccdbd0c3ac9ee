import { Module, OnModuleInit } from '@nestjs/common';
import { TaskPresenters } from '../../../core/tasks/task-presenters';
import { TasksModule } from '../../../core/tasks/tasks.module';
import { IdempotencyInterceptor } from '../../common/idempotency.interceptor';
import { AX_ACTION, AxReferenceVideoController } from './ax-reference-video.controller';
import { presentAxTask } from './ax-task.presenter';

@Module({ imports: [TasksModule], controllers: [AxReferenceVideoController], providers: [IdempotencyInterceptor] })
export class AxReferenceVideoModule implements OnModuleInit {
  constructor(private readonly presenters: TaskPresenters) {}

  onModuleInit(): void {
    this.presenters.register(AX_ACTION, (task) => presentAxTask(task));
  }
}
