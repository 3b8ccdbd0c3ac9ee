import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { ClientRoute } from '../../../core/accounts/guards/client-route.decorator';
import { CurrentPrincipal, SelectedModel } from '../../../core/accounts/guards/request-principal.decorator';
import { Principal } from '../../../core/accounts/principal';
import { ModelDescriptor } from '../../../core/models/catalogue';
import { TaskEngine } from '../../../core/tasks/task-engine.service';
import { TasksRepository } from '../../../core/tasks/tasks.repository';
import { GatewayError } from '../../../platform/errors';
import { requestContext } from '../../../platform/http/request-context';
import { Idempotent } from '../../common/idempotency.interceptor';
import { AxNewCreateBodyDto, AxOldCreateBodyDto } from './ax-create.dto';
import { validateAxCreateRequest } from './ax-create.rules';
import { presentAxCreated, presentAxTask } from './ax-task.presenter';

export const AX_ACTION = 'r2v';

@ApiTags('family B: reference-to-video')
@ApiExtraModels(AxNewCreateBodyDto, AxOldCreateBodyDto)
@Controller('ax/api/v1')
export class AxReferenceVideoController {
  constructor(
    private readonly engine: TaskEngine,
    private readonly tasks: TasksRepository,
  ) {}

  @Post('services/aigc/video-generation/video-synthesis')
  @HttpCode(200)
  @ClientRoute({ capability: 'reference2video', selection: 'body' })
  @Idempotent()
  @ApiOperation({ summary: 'Create a reference-to-video task (protocol chosen by model)' })
  @ApiBody({ schema: { oneOf: [{ $ref: getSchemaPath(AxNewCreateBodyDto) }, { $ref: getSchemaPath(AxOldCreateBodyDto) }] } })
  async create(
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, unknown>> {
    const request = validateAxCreateRequest(body);
    if (request.usedDeprecatedField) res.setHeader('Deprecation', 'true');
    const task = await this.engine.create(principal, {
      family: 'ax',
      action: AX_ACTION,
      model,
      operation: AX_ACTION,
      upstreamBody: request.upstreamBody as unknown as Record<string, unknown>,
      snapshot: request.snapshot,
      billing: request.billing,
    });
    return presentAxCreated(task, requestContext.requestId() ?? '');
  }

  @Get('tasks/:task_id')
  @ClientRoute()
  @ApiOperation({ summary: 'Query a family B task from the gateway’s record' })
  async get(@CurrentPrincipal() principal: Principal, @Param('task_id') taskId: string): Promise<Record<string, unknown>> {
    const task = await this.tasks.findForAccount(taskId, principal.account.id);
    if (!task || task.family !== 'ax' || task.phase === 'rejected') throw GatewayError.notFound('Task');
    return presentAxTask(task, requestContext.requestId());
  }
}
