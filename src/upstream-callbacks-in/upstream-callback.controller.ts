import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { TaskSyncWorker } from '../core/tasks/task-sync.worker';
import { TasksRepository } from '../core/tasks/tasks.repository';
import { GatewayError } from '../platform/errors';
import { NoBody } from '../platform/http/request-body';

/** The route's path, before the per-task token. */
export const UPSTREAM_CALLBACK_PATH = '/callbacks/upstream/';

/**
 * Where upstreams report progress (given to them only when PUBLIC_BASE_URL is set). The body is
 * never read: the task is looked up by its unguessable token and synced from the upstream at once.
 */
@ApiExcludeController()
@Controller('callbacks/upstream')
export class UpstreamCallbackController {
  constructor(
    private readonly tasks: TasksRepository,
    private readonly worker: TaskSyncWorker,
  ) {}

  @Post(':token')
  @HttpCode(200)
  @NoBody()
  async receive(@Param('token') token: string): Promise<{ ok: true }> {
    const task = token.length >= 16 ? await this.tasks.findByCallbackToken(token) : null;
    if (!task) throw GatewayError.notFound('Callback target');
    await this.worker.syncNow(task.id);
    return { ok: true };
  }
}
