import { Module, OnModuleInit } from '@nestjs/common';
import { TasksModule } from '../core/tasks/tasks.module';
import { registerTaskFace } from '../core/tasks/task-faces';
import { IdempotencyGuard } from '../families/common/idempotency.guard';
import { ResultServing } from '../result-serving/result-serving.service';
import { VideosController } from './videos/videos.controller';
import { VideosRepository } from './videos/videos.repository';
import { VideosService } from './videos/videos.service';

/**
 * The OpenAI-shaped `/v1/videos` face over families B and C: it maps its fields onto a family's
 * request and runs that family's rules and the core's task life; it has no rule of its own.
 */
@Module({
  imports: [TasksModule],
  controllers: [VideosController],
  providers: [VideosService, VideosRepository, IdempotencyGuard, ResultServing],
})
export class OpenAiModule implements OnModuleInit {
  constructor(private readonly videos: VideosService) {}

  /** Tasks created here are told in this API's events (`video.completed`, `video.failed`). */
  onModuleInit(): void {
    registerTaskFace(this.videos);
  }
}
