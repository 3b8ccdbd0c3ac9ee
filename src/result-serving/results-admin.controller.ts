import { Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES, ADMIN_ROUTE_ERRORS, AdminErrorResponses } from '../admin/admin.errors';
import { TakesEmptyBody } from '../admin/empty-body';
import { AdminGuard } from '../admin/admin.guard';
import { TakesNoQuery } from '../admin/no-query.guard';
import { RequiresRole } from '../admin/requires-role.decorator';
import { ResultFileEntity } from '../core/result-keeping/result-file.entity';
import { ResultFilesRepository } from '../core/result-keeping/result-files.repository';
import { ResultRekeeping } from '../core/result-keeping/result-rekeeping.service';
import type { ChangeOrigin } from '../core/audit/audit.types';
import { TasksRepository } from '../core/tasks/tasks.repository';
import { Caller } from '../admin/admin-caller';
import { GatewayError } from '../platform/errors';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export class ResultFileResponse {
  @ApiProperty({ description: 'Which file of the task: v<i> video, v<i>w watermarked, v<i>c cover, a<i> trial audio' })
  slot: string;
  @ApiProperty({ enum: ['pending', 'stored', 'failed', 'skipped', 'removed'] }) status: string;
  @ApiPropertyOptional({ type: Number, nullable: true }) size_bytes: number | null;
  @ApiPropertyOptional({ type: String, nullable: true }) content_type: string | null;
  @ApiProperty() attempts: number;
  @ApiPropertyOptional({ type: String, nullable: true }) last_error: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) next_attempt_at: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) stored_at: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'When retention removes the copy' })
  expires_at: string | null;
}

export class TaskResultsResponse {
  @ApiProperty() task_id: string;
  @ApiProperty() account_id: string;
  @ApiProperty({ type: [ResultFileResponse] }) files: ResultFileResponse[];
}

/** What the gateway kept of a task's results: each file's state and size. */
@ApiTags('admin')
@ApiBearerAuth()
@AdminErrorResponses(...ADMIN_ROUTE_ERRORS)
@TakesNoQuery()
@UseGuards(AdminGuard)
@Controller('admin/v1/tasks')
export class ResultsAdminController {
  constructor(
    private readonly tasks: TasksRepository,
    private readonly files: ResultFilesRepository,
    private readonly rekeeping: ResultRekeeping,
  ) {}

  @Get(':taskId/results')
  @RequiresRole('viewer')
  @ApiOperation({ summary: "A task's kept result files: state, size, attempts, retention" })
  @ApiOkResponse({ type: TaskResultsResponse })
  @AdminErrorResponses(ADMIN_ERROR_CAUSES.taskNotFound)
  async list(@Param('taskId') taskId: string): Promise<TaskResultsResponse> {
    const task = await this.tasks.findById(taskId);
    if (!task) throw GatewayError.notFound('Task');
    const files = await this.files.forTask(task.id);
    return { task_id: task.id, account_id: task.accountId, files: files.map(presentResultFile) };
  }

  /** Files already kept, or queued, are left alone; the others are downloaded anew from the upstream. */
  @Post(':taskId/results/keep')
  @RequiresRole('operator')
  @HttpCode(200)
  @ApiOperation({ summary: "Keep a succeeded task's result files again: those not kept, failed or removed" })
  @TakesEmptyBody()
  @ApiOkResponse({ type: TaskResultsResponse })
  @AdminErrorResponses(...ADMIN_BODY_ERRORS, ADMIN_ERROR_CAUSES.taskNotFound, ADMIN_ERROR_CAUSES.taskStateConflict)
  async keepAgain(@Param('taskId') taskId: string, @Caller() origin: ChangeOrigin): Promise<TaskResultsResponse> {
    const task = await this.tasks.findById(taskId);
    if (!task) throw GatewayError.notFound('Task');
    const files = await this.rekeeping.keepAgain(task, origin);
    return { task_id: task.id, account_id: task.accountId, files: files.map(presentResultFile) };
  }
}

export function presentResultFile(f: ResultFileEntity): ResultFileResponse {
  return {
    slot: f.slot,
    status: f.status,
    size_bytes: f.sizeBytes,
    content_type: f.contentType,
    attempts: f.attempts,
    last_error: f.lastError,
    next_attempt_at: iso(f.nextAttemptAt),
    stored_at: iso(f.storedAt),
    expires_at: iso(f.expiresAt),
  };
}
