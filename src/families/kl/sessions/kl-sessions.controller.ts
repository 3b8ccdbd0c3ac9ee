import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClientRoute } from '../../../core/accounts/guards/client-route.decorator';
import { CurrentPrincipal, SelectedModel } from '../../../core/accounts/guards/request-principal.decorator';
import { Principal } from '../../../core/accounts/principal';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { klModelSelection } from '../kl-model-selection';
import {
  KlPreviewResponse,
  KlSelectionResponse,
  KlSessionClearedResponse,
  KlSessionInitResponse,
} from './kl-session.responses';
import { KlSessionsService } from './kl-sessions.service';
import { Ctx } from '../../../platform/http/ctx.decorator';
import type { RequestContext } from '../../../platform/http/request-context';

const selection = { capability: 'editing.selection', selection: klModelSelection } as const;

@ApiTags('family A: editing sessions')
@Controller('kl/v1/videos/multi-elements')
export class KlSessionsController {
  constructor(private readonly service: KlSessionsService) {}

  @Post('init-selection')
  @HttpCode(200)
  @ClientRoute(selection)
  @ApiOperation({ summary: 'Initialise a source video into an editing session' })
  @ApiOkResponse({ type: KlSessionInitResponse })
  init(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @Body() body: unknown,
  ) {
    return this.service.init(ctx, principal, model, body);
  }

  @Post('add-selection')
  @HttpCode(200)
  @ClientRoute(selection)
  @ApiOperation({ summary: 'Mark points on one frame' })
  @ApiOkResponse({ type: KlSelectionResponse })
  add(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @Body() body: unknown,
  ) {
    return this.service.add(ctx, principal, model, body);
  }

  @Post('delete-selection')
  @HttpCode(200)
  @ClientRoute(selection)
  @ApiOperation({ summary: 'Remove marked points (exactly as added) from one frame' })
  @ApiOkResponse({ type: KlSelectionResponse })
  delete(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @Body() body: unknown,
  ) {
    return this.service.delete(ctx, principal, model, body);
  }

  @Post('clear-selection')
  @HttpCode(200)
  @ClientRoute(selection)
  @ApiOperation({ summary: 'Remove every mark of the session' })
  @ApiOkResponse({ type: KlSessionClearedResponse })
  clear(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @Body() body: unknown,
  ) {
    return this.service.clear(ctx, principal, model, body);
  }

  @Post('preview-selection')
  @HttpCode(200)
  @ClientRoute(selection)
  @ApiOperation({ summary: 'Render the masked preview of the selection' })
  @ApiOkResponse({ type: KlPreviewResponse })
  preview(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @Body() body: unknown,
  ) {
    return this.service.preview(ctx, principal, model, body);
  }
}
