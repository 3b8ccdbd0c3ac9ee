import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ClientRoute } from '../../../core/accounts/guards/client-route.decorator';
import { CurrentPrincipal, SelectedModel } from '../../../core/accounts/guards/request-principal.decorator';
import { Principal } from '../../../core/accounts/principal';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { Idempotent } from '../../common/idempotency.guard';
import { klEditingTaskSelection } from './kl-editing-model-selection';
import { KlEditingCreateDto } from './kl-editing.dto';
import { KL_EDITING_TASK_MODEL } from '../kl.ids';
import { KL_ERROR_CAUSES, KlErrorResponses } from '../kl.errors';
import {
  CLIENT_ROUTE_ERRORS,
  ERROR_CAUSES,
  noModelEnabled,
  taskCreateErrors,
} from '../../../platform/http/openapi/error-responses';
import { KlEditingCreatedResponse, KlEditingListResponse, KlEditingTaskResponse } from './kl-editing.responses';
import { KlEditingService } from './kl-editing.service';
import { KlEditingRequest, validateKlEditingRequest } from './kl-editing.rules';
import { KlListQuery, parseKlListQuery } from '../tasks/kl-task-list';
import { RulesBody, RulesQuery } from '../../../platform/validation/rules-body.decorator';
import { Ctx } from '../../../platform/http/ctx.decorator';
import type { RequestContext } from '../../../platform/http/request-context';
import { MediaBody } from '../../../platform/http/request-body';

@ApiTags('kl: editing tasks')
@KlErrorResponses(...CLIENT_ROUTE_ERRORS)
@Controller('kl/v1/videos/multi-elements')
export class KlEditingController {
  constructor(private readonly service: KlEditingService) {}

  @Post()
  @HttpCode(200)
  @ClientRoute({ capability: 'editing.task', selection: klEditingTaskSelection })
  @MediaBody()
  @Idempotent()
  @ApiOperation({ summary: 'Create an editing task on a session (add, swap or remove elements)' })
  @ApiBody({ type: KlEditingCreateDto })
  @ApiOkResponse({ type: KlEditingCreatedResponse })
  @KlErrorResponses(
    ...taskCreateErrors(KL_EDITING_TASK_MODEL, 'model_name'),
    KL_ERROR_CAUSES.sessionNotFound,
    KL_ERROR_CAUSES.videoNotFound,
  )
  create(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @RulesBody(validateKlEditingRequest) request: KlEditingRequest,
  ): Promise<KlEditingCreatedResponse> {
    return this.service.create(ctx, principal, model, request);
  }

  @Get()
  @ClientRoute({ capability: 'editing.task', selection: 'none' })
  @ApiOperation({ summary: 'List the caller’s editing tasks, newest first' })
  @ApiQuery({ name: 'pageNum', required: false, type: Number })
  @ApiQuery({ name: 'pageSize', required: false, type: Number })
  @ApiQuery({ name: 'filter.model', required: false, type: String })
  @ApiQuery({ name: 'filter.task_ids', required: false, type: [String] })
  @ApiOkResponse({ type: KlEditingListResponse })
  @KlErrorResponses(KL_ERROR_CAUSES.listQuery, noModelEnabled('editing.task', 'kl'))
  list(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @RulesQuery(parseKlListQuery) query: KlListQuery,
  ): Promise<KlEditingListResponse> {
    return this.service.list(ctx, principal, query);
  }

  @Get(':id')
  @ClientRoute({ capability: 'editing.task', selection: 'none' })
  @ApiOperation({ summary: 'Query one editing task from the gateway’s record' })
  @ApiOkResponse({ type: KlEditingTaskResponse })
  @KlErrorResponses(ERROR_CAUSES.taskNotFound, noModelEnabled('editing.task', 'kl'))
  get(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
  ): Promise<KlEditingTaskResponse> {
    return this.service.get(ctx, principal, id);
  }
}
