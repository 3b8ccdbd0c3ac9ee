import { Module } from '@nestjs/common';
import { TasksModule } from '../core/tasks/tasks.module';
import { UpstreamCallbackController } from './upstream-callback.controller';

@Module({ imports: [TasksModule], controllers: [UpstreamCallbackController] })
export class CallbacksModule {}
