import { Controller, HttpCode, Post, Type, applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClientRoute } from '../../../core/accounts/guards/client-route.decorator';
import { CurrentPrincipal, SelectedModel } from '../../../core/accounts/guards/request-principal.decorator';
import { Principal } from '../../../core/accounts/principal';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { Ctx } from '../../../platform/http/ctx.decorator';
import type { RequestContext } from '../../../platform/http/request-context';
import { DtoBody } from '../../../platform/validation/rules-body.decorator';
import { klModelSelection } from '../kl-model-selection';
import { KL_ERROR_CAUSES, KlErrorResponses } from '../kl.errors';
import { CLIENT_ROUTE_ERRORS, ERROR_CAUSES, modelErrors } from '../../../platform/http/openapi/error-responses';
import { KL_DEFAULT_MODEL } from '../kl.ids';
import { KlInitSelectionDto, KlSelectionDto, KlSessionIdDto } from './kl-session.dto';
import {
  KlPreviewResponse,
  KlSelectionResponse,
  KlSessionClearedResponse,
  KlSessionInitResponse,
} from './kl-session.responses';
import { KlSessionsService } from './kl-sessions.service';

/** A session operation: a synchronous, priced POST under the model's `editing.selection` capability. */
function SessionRoute(path: string, summary: string, answer: Type<unknown>) {
  return applyDecorators(
    Post(path),
    HttpCode(200),
    ClientRoute({ capability: 'editing.selection', selection: klModelSelection }),
    ApiOperation({ summary }),
    ApiOkResponse({ type: answer }),
    KlErrorResponses(
      ERROR_CAUSES.invalidJson,
      ...modelErrors(KL_DEFAULT_MODEL, 'model_name'),
      ERROR_CAUSES.insufficientQuota,
      KL_ERROR_CAUSES.sessionNotFound,
      KL_ERROR_CAUSES.sessionBusy,
      ERROR_CAUSES.tooLarge,
      ERROR_CAUSES.unavailable,
    ),
  );
}

@ApiTags('kl: editing sessions')
@KlErrorResponses(...CLIENT_ROUTE_ERRORS)
@Controller('kl/v1/videos/multi-elements')
export class KlSessionsController {
  constructor(private readonly service: KlSessionsService) {}

  @SessionRoute('init-selection', 'Initialise a source video into an editing session', KlSessionInitResponse)
  init(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @DtoBody(KlInitSelectionDto) dto: KlInitSelectionDto,
  ): Promise<KlSessionInitResponse> {
    return this.service.init(ctx, principal, model, dto);
  }

  @SessionRoute('add-selection', 'Mark points on one frame', KlSelectionResponse)
  add(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @DtoBody(KlSelectionDto) dto: KlSelectionDto,
  ): Promise<KlSelectionResponse> {
    return this.service.add(ctx, principal, model, dto);
  }

  @SessionRoute('delete-selection', 'Remove marked points (exactly as added) from one frame', KlSelectionResponse)
  delete(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @DtoBody(KlSelectionDto) dto: KlSelectionDto,
  ): Promise<KlSelectionResponse> {
    return this.service.delete(ctx, principal, model, dto);
  }

  @SessionRoute('clear-selection', 'Remove every mark of the session', KlSessionClearedResponse)
  clear(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @DtoBody(KlSessionIdDto) dto: KlSessionIdDto,
  ): Promise<KlSessionClearedResponse> {
    return this.service.clear(ctx, principal, model, dto);
  }

  @SessionRoute('preview-selection', 'Render the masked preview of the selection', KlPreviewResponse)
  preview(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @DtoBody(KlSessionIdDto) dto: KlSessionIdDto,
  ): Promise<KlPreviewResponse> {
    return this.service.preview(ctx, principal, model, dto);
  }
}
