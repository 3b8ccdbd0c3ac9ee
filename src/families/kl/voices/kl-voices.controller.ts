import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ClientRoute } from '../../../core/accounts/guards/client-route.decorator';
import { CurrentPrincipal, SelectedModel } from '../../../core/accounts/guards/request-principal.decorator';
import { Principal } from '../../../core/accounts/principal';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { Idempotent } from '../../common/idempotency.guard';
import { MediaRulesBody } from '../../common/media-url-policy';
import { klModelSelection } from '../kl-model-selection';
import { KL_ERROR_CAUSES, KlErrorResponses } from '../kl.errors';
import {
  CLIENT_ROUTE_ERRORS,
  ERROR_CAUSES,
  modelErrors,
  noModelEnabled,
  taskCreateErrors,
} from '../../../platform/http/openapi/error-responses';
import { KL_DEFAULT_MODEL } from '../kl.ids';
import { KlCreateVoiceDto, KlDeleteVoiceDto } from './kl-voice.dto';
import {
  KlPresetsResponse,
  KlVoiceCreatedResponse,
  KlVoiceDeletedResponse,
  KlVoiceListResponse,
  KlVoiceTaskResponse,
} from './kl-voice.responses';
import { KlVoicesService } from './kl-voices.service';
import {
  KlVoiceCreateRequest,
  parseKlPresetsQuery,
  validateKlVoiceCreate,
  validateKlVoiceDelete,
} from './kl-voice.rules';
import { KlListQuery, parseKlListQuery } from '../tasks/kl-task-list';
import { RulesBody, RulesQuery } from '../../../platform/validation/rules-body.decorator';
import { Ctx } from '../../../platform/http/ctx.decorator';
import type { RequestContext } from '../../../platform/http/request-context';

@ApiTags('kl: voices')
@KlErrorResponses(...CLIENT_ROUTE_ERRORS)
@Controller('kl/v1/general')
export class KlVoicesController {
  constructor(private readonly service: KlVoicesService) {}

  @Post('custom-voices')
  @HttpCode(200)
  @ClientRoute({ capability: 'voices', selection: klModelSelection })
  @Idempotent()
  @ApiOperation({ summary: 'Create a custom voice (asynchronous task)' })
  @ApiBody({ type: KlCreateVoiceDto })
  @ApiOkResponse({ type: KlVoiceCreatedResponse })
  @KlErrorResponses(...taskCreateErrors(KL_DEFAULT_MODEL, 'model_name'), KL_ERROR_CAUSES.videoNotFound)
  create(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @MediaRulesBody(validateKlVoiceCreate) request: KlVoiceCreateRequest,
  ): Promise<KlVoiceCreatedResponse> {
    return this.service.create(ctx, principal, model, request);
  }

  @Get('custom-voices/:id')
  @ClientRoute({ capability: 'voices', selection: 'none' })
  @ApiOperation({ summary: 'Query one custom voice task from the gateway’s record' })
  @ApiOkResponse({ type: KlVoiceTaskResponse })
  @KlErrorResponses(ERROR_CAUSES.taskNotFound, noModelEnabled('voices', 'kl'))
  get(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
  ): Promise<KlVoiceTaskResponse> {
    return this.service.get(ctx, principal, id);
  }

  @Get('custom-voices')
  @ClientRoute({ capability: 'voices', selection: 'none' })
  @ApiOperation({ summary: 'List the account’s custom voice tasks (deleted voices stay, marked deleted)' })
  @ApiQuery({ name: 'pageNum', required: false, type: Number })
  @ApiQuery({ name: 'pageSize', required: false, type: Number })
  @ApiQuery({ name: 'filter.model', required: false, type: String })
  @ApiQuery({
    name: 'filter.task_ids',
    required: false,
    type: [String],
    description: 'Repeat for several IDs; at most 100',
  })
  @ApiOkResponse({ type: KlVoiceListResponse })
  @KlErrorResponses(KL_ERROR_CAUSES.listQuery, noModelEnabled('voices', 'kl'))
  list(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @RulesQuery(parseKlListQuery) query: KlListQuery,
  ): Promise<KlVoiceListResponse> {
    return this.service.list(ctx, principal, query);
  }

  @Get('presets-voices')
  @ClientRoute({ capability: 'voices', selection: 'none' })
  @ApiOperation({
    summary:
      'List the official preset voices (cached 60 s; served from the cache while the upstream fails); trial_url is a gateway URL',
  })
  @ApiQuery({ name: 'pageNum', required: false, type: Number })
  @ApiQuery({ name: 'pageSize', required: false, type: Number })
  @ApiOkResponse({ type: KlPresetsResponse })
  @KlErrorResponses(KL_ERROR_CAUSES.listQuery, noModelEnabled('voices', 'kl'), ERROR_CAUSES.unavailable)
  presets(
    @Ctx() ctx: RequestContext,
    @RulesQuery(parseKlPresetsQuery) query: { page: number; pageSize: number },
  ): Promise<KlPresetsResponse> {
    return this.service.presetVoices(ctx, query);
  }

  @Post('delete-voices')
  @HttpCode(200)
  @ClientRoute({ capability: 'voices', selection: klModelSelection })
  @ApiOperation({ summary: 'Delete one of the account’s custom voices' })
  @ApiBody({ type: KlDeleteVoiceDto })
  @ApiOkResponse({ type: KlVoiceDeletedResponse })
  @KlErrorResponses(
    ERROR_CAUSES.invalidJson,
    ...modelErrors(KL_DEFAULT_MODEL, 'model_name'),
    KL_ERROR_CAUSES.voiceNotFound,
    ERROR_CAUSES.tooLarge,
  )
  delete(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @RulesBody(validateKlVoiceDelete) dto: KlDeleteVoiceDto,
  ): Promise<KlVoiceDeletedResponse> {
    return this.service.delete(ctx, principal, dto);
  }
}
