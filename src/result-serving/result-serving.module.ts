import { DynamicModule, Module } from '@nestjs/common';
import { AdminGuard } from '../admin/admin.guard';
import { ResultKeepingModule } from '../core/result-keeping/result-keeping.module';
import { RESULT_PATH } from '../core/result-keeping/result-links';
import { TasksModule } from '../core/tasks/tasks.module';
import { registerSecretPath } from '../platform/logging/url-mask';
import { ResultServing } from './result-serving.service';
import { ResultsAdminController } from './results-admin.controller';
import { ResultsController } from './results.controller';

/** Serving kept results at their signed URLs, and their operator view; the keep queue itself is the core's. */
@Module({})
export class ResultServingModule {
  constructor() {
    // A result URL's token is its credential: logs and traces show the route, never the token.
    registerSecretPath(RESULT_PATH);
  }

  static forRoot(adminToken: string): DynamicModule {
    return {
      module: ResultServingModule,
      imports: [ResultKeepingModule.forRoot(adminToken), TasksModule],
      controllers: [ResultsController, ResultsAdminController],
      providers: [ResultServing, AdminGuard],
    };
  }
}
