import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ClientRoute } from '../../../core/accounts/guards/client-route.decorator';
import { modelFromBody } from '../../../core/accounts/guards/model-access.guard';
import { CurrentPrincipal, SelectedModel } from '../../../core/accounts/guards/request-principal.decorator';
import { Principal } from '../../../core/accounts/principal';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { Idempotent } from '../../common/idempotency.guard';
import { VdNonSubjectModeRequestDto, VdSubjectModeRequestDto, VdTaskCreationResponseDto } from './vd-create.dto';
import { VdReferenceVideoService } from './vd-reference-video.service';
import { VdCreationsResponse } from './vd-task.responses';
import { Ctx } from '../../../platform/http/ctx.decorator';
import type { RequestContext } from '../../../platform/http/request-context';

@ApiTags('family C: reference-to-video')
@ApiExtraModels(VdSubjectModeRequestDto, VdNonSubjectModeRequestDto)
@Controller('vd/ent/v2')
export class VdReferenceVideoController {
  constructor(private readonly service: VdReferenceVideoService) {}

  @Post('reference2video')
  @HttpCode(200)
  @ClientRoute({ capability: 'reference2video', selection: modelFromBody })
  @Idempotent()
  @ApiOperation({
    summary: 'Create a reference-to-video task (subject mode with `subjects`, non-subject mode with `images`/`videos`)',
  })
  @ApiBody({
    schema: {
      oneOf: [{ $ref: getSchemaPath(VdSubjectModeRequestDto) }, { $ref: getSchemaPath(VdNonSubjectModeRequestDto) }],
    },
  })
  @ApiOkResponse({ type: VdTaskCreationResponseDto })
  create(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @Body() body: unknown,
  ): Promise<VdTaskCreationResponseDto> {
    return this.service.create(ctx, principal, model, body);
  }

  @Get('tasks/:id/creations')
  @ClientRoute()
  @ApiOperation({ summary: 'Query a family C task and its creations from the gateway’s record' })
  @ApiOkResponse({ type: VdCreationsResponse })
  creations(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<VdCreationsResponse> {
    return this.service.creations(principal, id);
  }
}
