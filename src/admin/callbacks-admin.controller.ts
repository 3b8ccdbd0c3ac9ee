import { Controller, Get, Inject, Param, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CallbackDeliveryEntity } from '../core/tasks/entities/callback-delivery.entity';
import { CallbackOutboxRepository } from '../core/tasks/callbacks/callback-outbox.repository';
import { TasksRepository } from '../core/tasks/tasks.repository';
import { AppConfig } from '../platform/config/app-config';
import { GatewayError } from '../platform/errors';
import { AdminGuard } from './admin.guard';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('admin/v1/tasks')
export class CallbacksAdminController {
  constructor(
    private readonly tasks: TasksRepository,
    private readonly outbox: CallbackOutboxRepository,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  /** Why a client did not get its callback: every delivery of the task, its attempts, last error and next try. */
  @Get(':taskId/callbacks')
  @ApiOperation({ summary: "A task's client callback deliveries: attempts, last status, next try" })
  @ApiOkResponse({
    description:
      '`{task_id, account_id, callback_url, deliveries: [{id, url, status, attempts, max_attempts, last_error, next_attempt_at, created_at, updated_at}]}`; ' +
      '`status` is `pending` (retried at `next_attempt_at`), `delivered` or `failed` (gave up after `max_attempts`); `id` is the `webhook-id` header the receiver saw.',
  })
  async list(@Param('taskId') taskId: string) {
    const task = await this.tasks.findById(taskId);
    if (!task) throw GatewayError.notFound('Task');
    const deliveries = await this.outbox.listForTask(task.id);
    return {
      task_id: task.id,
      account_id: task.accountId,
      callback_url: task.callbackUrl,
      deliveries: deliveries.map((d) => this.present(d)),
    };
  }

  private present(d: CallbackDeliveryEntity) {
    return {
      id: d.id,
      url: d.url,
      status: d.status,
      attempts: d.attempts,
      max_attempts: this.config.CALLBACK_MAX_ATTEMPTS,
      last_error: d.lastError,
      next_attempt_at: iso(d.nextAttemptAt),
      created_at: iso(d.createdAt),
      updated_at: iso(d.updatedAt),
    };
  }
}
