import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClientRoute } from '../core/accounts/guards/client-route.decorator';
import { CurrentPrincipal } from '../core/accounts/guards/request-principal.decorator';
import { Principal } from '../core/accounts/principal';
import { TaskCancellation } from '../core/tasks/task-cancellation.service';
import { TaskQueries } from '../core/tasks/task-queries.service';
import { Ctx } from '../platform/http/ctx.decorator';
import { ApiErrorResponses, CLIENT_ROUTE_ERRORS, TASK_CANCEL_ERRORS } from '../platform/http/openapi/error-responses';
import { RequestContext } from '../platform/http/request-context';
import { NoBody } from '../platform/http/request-body';
import { isoTimestamp } from '../platform/time/formats';
import { TaskCancelResponse } from './task-cancel.responses';

@ApiTags('gateway')
@ApiErrorResponses(null, CLIENT_ROUTE_ERRORS)
@ClientRoute()
@Controller('gateway/v1/tasks')
export class TaskCancelController {
  constructor(
    private readonly queries: TaskQueries,
    private readonly cancellation: TaskCancellation,
  ) {}

  /** Takes no body (one sent is not read): the path names everything. */
  @Post(':task_id/cancel')
  @HttpCode(200)
  @NoBody()
  @ApiOperation({
    summary:
      'Cancel a task of any family where its upstream still can: it ends cancelled, its hold is released, nothing is ' +
      'charged, its callback says so. 409 `cannot_cancel` (with the reason) where it cannot; the task goes on',
  })
  @ApiOkResponse({ type: TaskCancelResponse })
  @ApiErrorResponses(null, TASK_CANCEL_ERRORS)
  async cancel(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @Param('task_id') taskId: string,
  ): Promise<TaskCancelResponse> {
    const task = await this.queries.findOwned(principal, taskId);
    const { task: cancelled, alreadyCancelled } = await this.cancellation.cancel(task, { kind: 'owner' }, ctx);
    return {
      task_id: cancelled.id,
      status: 'cancelled',
      already_cancelled: alreadyCancelled,
      model: cancelled.model,
      charged: 0,
      released: cancelled.estimatedCharge,
      cancelled_at: isoTimestamp(cancelled.finishedAt ?? cancelled.updatedAt),
    };
  }
}
