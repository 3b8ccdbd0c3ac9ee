import { Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ChangeOrigin } from '../core/audit/audit.types';
import { TaskCancellation } from '../core/tasks/task-cancellation.service';
import { TasksRepository } from '../core/tasks/tasks.repository';
import { GatewayError } from '../platform/errors';
import { Ctx } from '../platform/http/ctx.decorator';
import { TASK_CANCEL_ERRORS } from '../platform/http/openapi/error-responses';
import { RequestContext } from '../platform/http/request-context';
import { NoBody } from '../platform/http/request-body';
import { Caller } from './admin-caller';
import { ADMIN_ROUTE_ERRORS, AdminErrorResponses } from './admin.errors';
import { AdminGuard } from './admin.guard';
import { AdminReadsService } from './reads/admin-reads.service';
import { TaskDetailResponse } from './reads/reads.responses';
import { RequiresRole } from './requires-role.decorator';
import { TakesNoQuery } from './no-query.guard';

/** Operators' actions on a task of any account. */
@ApiTags('admin')
@ApiBearerAuth()
@AdminErrorResponses(...ADMIN_ROUTE_ERRORS)
@TakesNoQuery()
@UseGuards(AdminGuard)
@Controller('admin/v1/tasks')
export class TaskActionsAdminController {
  constructor(
    private readonly tasks: TasksRepository,
    private readonly cancellation: TaskCancellation,
    private readonly reads: AdminReadsService,
  ) {}

  /** Takes no body (one sent is not read). Recorded in the audit trail as `task.cancel`. */
  @Post(':taskId/cancel')
  @RequiresRole('operator')
  @HttpCode(200)
  @NoBody()
  @ApiOperation({
    summary:
      'Cancel a task where its upstream still can: it ends cancelled, its hold is released, its callback says so; ' +
      'answers the task as its detail shows it. 409 `cannot_cancel` with the reason where it cannot',
  })
  @ApiOkResponse({ type: TaskDetailResponse })
  @AdminErrorResponses(...TASK_CANCEL_ERRORS)
  async cancel(
    @Ctx() ctx: RequestContext,
    @Param('taskId') taskId: string,
    @Caller() origin: ChangeOrigin,
  ): Promise<TaskDetailResponse> {
    const task = await this.tasks.findById(taskId);
    if (!task) throw GatewayError.notFound('Task');
    await this.cancellation.cancel(task, { kind: 'operator', origin }, ctx);
    return this.reads.task(taskId);
  }
}
