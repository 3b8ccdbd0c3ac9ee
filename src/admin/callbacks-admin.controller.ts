import { Controller, Get, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CallbackDeliveryEntity } from '../core/tasks/entities/callback-delivery.entity';
import type { TaskEntity } from '../core/tasks/entities/task.entity';
import { CallbackOutboxRepository } from '../core/tasks/client-callbacks-out/callback-outbox.repository';
import { CallbackRedelivery } from '../core/tasks/client-callbacks-out/callback-redelivery.service';
import { TasksRepository } from '../core/tasks/tasks.repository';
import type { ChangeOrigin } from '../core/audit/audit.types';
import { Caller } from './admin-caller';
import { AppConfig } from '../platform/config/app-config';
import { GatewayError } from '../platform/errors';
import { traceIdOf } from '../platform/telemetry/spans';
import { ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES, ADMIN_ROUTE_ERRORS, AdminErrorResponses } from './admin.errors';
import { TakesEmptyBody } from './empty-body';
import { AdminGuard } from './admin.guard';
import { TakesNoQuery } from './no-query.guard';
import { RequiresRole } from './requires-role.decorator';
import { CallbackDeliveryResponse, TaskCallbacksResponse } from './admin.responses';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

@ApiTags('admin')
@ApiBearerAuth()
@AdminErrorResponses(...ADMIN_ROUTE_ERRORS)
@TakesNoQuery()
@UseGuards(AdminGuard)
@Controller('admin/v1/tasks')
export class CallbacksAdminController {
  constructor(
    private readonly tasks: TasksRepository,
    private readonly outbox: CallbackOutboxRepository,
    private readonly redelivery: CallbackRedelivery,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  /** Why a client did not get its callback: every delivery of the task, its attempts, last error and next try. */
  @Get(':taskId/callbacks')
  @RequiresRole('viewer')
  @ApiOperation({ summary: "A task's client callback deliveries: attempts, last status, next try" })
  @ApiOkResponse({ type: TaskCallbacksResponse })
  @AdminErrorResponses(ADMIN_ERROR_CAUSES.taskNotFound)
  async list(@Param('taskId') taskId: string): Promise<TaskCallbacksResponse> {
    const task = await this.tasks.findById(taskId);
    if (!task) throw GatewayError.notFound('Task');
    return this.present(task);
  }

  /** A new delivery of the task's final state; the deliveries before it are left as they are. */
  @Post(':taskId/callbacks/redeliver')
  @RequiresRole('operator')
  @HttpCode(200)
  @ApiOperation({ summary: "Send an ended task's client callback again (a new delivery, retried as a first one)" })
  @TakesEmptyBody()
  @ApiOkResponse({ type: TaskCallbacksResponse })
  @AdminErrorResponses(...ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES.taskNotFound, ADMIN_ERROR_CAUSES.taskStateConflict)
  async redeliver(@Param('taskId') taskId: string, @Caller() origin: ChangeOrigin): Promise<TaskCallbacksResponse> {
    const task = await this.tasks.findById(taskId);
    if (!task) throw GatewayError.notFound('Task');
    await this.redelivery.redeliver(task, origin);
    return this.present(task);
  }

  private async present(task: TaskEntity): Promise<TaskCallbacksResponse> {
    const deliveries = await this.outbox.listForTask(task.id);
    return {
      task_id: task.id,
      account_id: task.accountId,
      callback_url: task.callbackUrl,
      trace_id: traceIdOf(task.traceContext),
      deliveries: deliveries.map((d) => presentDelivery(d, this.config.CALLBACK_MAX_ATTEMPTS)),
    };
  }
}

export function presentDelivery(d: CallbackDeliveryEntity, maxAttempts: number): CallbackDeliveryResponse {
  return {
    id: d.id,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    max_attempts: maxAttempts,
    last_error: d.lastError,
    next_attempt_at: iso(d.nextAttemptAt),
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
  };
}
