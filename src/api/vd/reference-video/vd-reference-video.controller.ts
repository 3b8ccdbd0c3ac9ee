import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ClientRoute } from '../../../core/accounts/guards/client-route.decorator';
import { CurrentPrincipal, SelectedModel } from '../../../core/accounts/guards/request-principal.decorator';
import { Principal } from '../../../core/accounts/principal';
import { ModelDescriptor } from '../../../core/models/catalogue';
import { TaskEngine } from '../../../core/tasks/task-engine.service';
import { TasksRepository } from '../../../core/tasks/tasks.repository';
import { GatewayError } from '../../../platform/errors';
import { Idempotent } from '../../common/idempotency.interceptor';
import { VdNonSubjectModeRequestDto, VdSubjectModeRequestDto, VdTaskCreationResponseDto } from './vd-create.dto';
import { validateVdCreateRequest } from './vd-create.rules';
import { presentVdCreated, presentVdCreations } from './vd-task.presenter';

export const VD_ACTION = 'reference2video';

@ApiTags('family C: reference-to-video')
@ApiExtraModels(VdSubjectModeRequestDto, VdNonSubjectModeRequestDto)
@Controller('vd/ent/v2')
export class VdReferenceVideoController {
  constructor(
    private readonly engine: TaskEngine,
    private readonly tasks: TasksRepository,
  ) {}

  @Post('reference2video')
  @HttpCode(200)
  @ClientRoute({ capability: 'reference2video', selection: 'body' })
  @Idempotent()
  @ApiOperation({ summary: 'Create a reference-to-video task (subject mode with `subjects`, non-subject mode with `images`/`videos`)' })
  @ApiBody({ schema: { oneOf: [{ $ref: getSchemaPath(VdSubjectModeRequestDto) }, { $ref: getSchemaPath(VdNonSubjectModeRequestDto) }] } })
  @ApiOkResponse({ type: VdTaskCreationResponseDto })
  async create(@CurrentPrincipal() principal: Principal, @SelectedModel() model: ModelDescriptor, @Body() body: unknown): Promise<Record<string, unknown>> {
    const request = validateVdCreateRequest(body);
    const task = await this.engine.create(principal, {
      family: 'vd',
      action: VD_ACTION,
      model,
      operation: VD_ACTION,
      upstreamBody: request.upstreamBody,
      snapshot: request.snapshot,
      billing: request.billing,
      callbackUrl: request.callbackUrl ?? null,
      creationEcho: { ...request.echo },
    });
    return presentVdCreated(task);
  }

  @Get('tasks/:id/creations')
  @ClientRoute()
  @ApiOperation({ summary: 'Query a family C task and its creations from the gateway’s record' })
  async creations(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<Record<string, unknown>> {
    const task = await this.tasks.findForAccount(id, principal.account.id);
    if (!task || task.family !== 'vd' || task.phase === 'rejected') throw GatewayError.notFound('Task');
    return presentVdCreations(task);
  }
}
