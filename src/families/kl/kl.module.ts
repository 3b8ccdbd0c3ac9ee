import { Module } from '@nestjs/common';
import { TasksModule } from '../../core/tasks/tasks.module';
import { IdempotencyInterceptor } from '../common/idempotency.interceptor';

/** Family A's HTTP face: sessions, editing tasks and voices, each a controller over its service. */
@Module({ imports: [TasksModule], controllers: [], providers: [IdempotencyInterceptor] })
export class KlModule {}
