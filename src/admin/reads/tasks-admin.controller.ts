import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminFiltersPipe } from '../admin-filters.pipe';
import { AdminQueryPipe } from '../admin-query.pipe';
import { ADMIN_ERROR_CAUSES, ADMIN_ROUTE_ERRORS, AdminErrorResponses } from '../admin.errors';
import { AdminGuard } from '../admin.guard';
import { RequiresRole } from '../requires-role.decorator';
import { AdminReadsService } from './admin-reads.service';
import { DEFAULT_LIST_LIMIT, TasksQueryDto } from './reads.dto';
import { TaskDetailResponse, TaskPageResponse } from './reads.responses';
import { TakesNoQuery } from '../no-query.guard';

@ApiTags('admin')
@ApiBearerAuth()
@AdminErrorResponses(...ADMIN_ROUTE_ERRORS)
@UseGuards(AdminGuard)
@Controller('admin/v1/tasks')
export class TasksAdminController {
  constructor(private readonly reads: AdminReadsService) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Tasks, newest first, filtered; cursor-paginated (`next_cursor`)' })
  @ApiOkResponse({ type: TaskPageResponse })
  @AdminErrorResponses(ADMIN_ERROR_CAUSES.invalidQuery, ADMIN_ERROR_CAUSES.invalidFilter)
  list(@Query(AdminQueryPipe, AdminFiltersPipe) dto: TasksQueryDto): Promise<TaskPageResponse> {
    return this.reads.tasks({
      accountId: dto.account_id,
      family: dto.family,
      model: dto.model,
      status: dto.status,
      fromMs: dto.from,
      toMs: dto.to,
      externalTaskId: dto.external_task_id,
      upstreamTaskId: dto.upstream_task_id,
      cursor: dto.cursor,
      limit: dto.limit ?? DEFAULT_LIST_LIMIT,
    });
  }

  @TakesNoQuery()
  @Get(':taskId')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: "One task's whole story: account, key, channel, upstream request, timeline, money, callbacks, files",
  })
  @ApiOkResponse({ type: TaskDetailResponse })
  @AdminErrorResponses(ADMIN_ERROR_CAUSES.taskNotFound)
  detail(@Param('taskId') taskId: string): Promise<TaskDetailResponse> {
    return this.reads.task(taskId);
  }
}
