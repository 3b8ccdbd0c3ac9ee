import { DynamicModule, Module } from '@nestjs/common';
import { AdminGuard } from '../admin/admin.guard';
import { ResultsCoreModule } from '../core/results/results-core.module';
import { TasksModule } from '../core/tasks/tasks.module';
import { ResultServing } from './result-serving.service';
import { ResultsAdminController } from './results-admin.controller';
import { ResultsController } from './results.controller';

/** Serving kept results at their signed URLs, and their operator view; the keep queue itself is the core's. */
@Module({})
export class ResultsModule {
  static forRoot(adminToken: string): DynamicModule {
    return {
      module: ResultsModule,
      imports: [ResultsCoreModule.forRoot(adminToken), TasksModule],
      controllers: [ResultsController, ResultsAdminController],
      providers: [ResultServing, AdminGuard],
    };
  }
}
