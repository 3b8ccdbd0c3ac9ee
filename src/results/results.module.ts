import { DynamicModule, Module } from '@nestjs/common';
import { AdminGuard } from '../admin/admin.guard';
import { ResultsCoreModule } from '../core/results/results-core.module';
import { RESULT_PATH } from '../core/results/result-links';
import { TasksModule } from '../core/tasks/tasks.module';
import { registerSecretPath } from '../platform/logging/url-mask';
import { ResultServing } from './result-serving.service';
import { ResultsAdminController } from './results-admin.controller';
import { ResultsController } from './results.controller';

/** Serving kept results at their signed URLs, and their operator view; the keep queue itself is the core's. */
@Module({})
export class ResultsModule {
  constructor() {
    // A result URL's token is its credential: logs and traces show the route, never the token.
    registerSecretPath(RESULT_PATH);
  }

  static forRoot(adminToken: string): DynamicModule {
    return {
      module: ResultsModule,
      imports: [ResultsCoreModule.forRoot(adminToken), TasksModule],
      controllers: [ResultsController, ResultsAdminController],
      providers: [ResultServing, AdminGuard],
    };
  }
}
