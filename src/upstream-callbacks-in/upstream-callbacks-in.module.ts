import { Module } from '@nestjs/common';
import { TasksModule } from '../core/tasks/tasks.module';
import { registerSecretPath } from '../platform/logging/url-mask';
import { UPSTREAM_CALLBACK_PATH, UpstreamCallbackController } from './upstream-callback.controller';

@Module({ imports: [TasksModule], controllers: [UpstreamCallbackController] })
export class UpstreamCallbacksInModule {
  constructor() {
    // The per-task token is what lets a caller trigger a sync: logs and traces never show it.
    registerSecretPath(UPSTREAM_CALLBACK_PATH);
  }
}
