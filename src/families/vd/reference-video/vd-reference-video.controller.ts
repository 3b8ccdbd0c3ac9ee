import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ClientRoute } from '../../../core/accounts/guards/client-route.decorator';
import { modelFromBody } from '../../../core/accounts/guards/model-access.guard';
import { CurrentPrincipal, SelectedModel } from '../../../core/accounts/guards/request-principal.decorator';
import { Principal } from '../../../core/accounts/principal';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { Idempotent } from '../../common/idempotency.guard';
import { VdNonSubjectModeRequestDto, VdSubjectModeRequestDto, VdTaskCreationResponseDto } from './vd-create.dto';
import { FamilyTasksService } from '../../common/family-tasks.service';
import { MediaRulesBody } from '../../common/media-url-policy';
import type { VdCreateRequest } from './vd-create.rules';
import { validateVdCreateRequest } from './vd-create.rules';
import { VD_REFERENCE_VIDEO } from './vd-reference-video.kind';
import { VdCreationsResponse } from './vd-task.responses';
import { Ctx } from '../../../platform/http/ctx.decorator';
import {
  CLIENT_ROUTE_ERRORS,
  ERROR_CAUSES,
  noModelEnabled,
  taskCreateErrors,
} from '../../../platform/http/openapi/error-responses';
import { VdErrorResponses } from '../vd.errors';
import type { RequestContext } from '../../../platform/http/request-context';
import { MediaBody } from '../../../platform/http/request-body';

@ApiTags('vd: reference-to-video')
@VdErrorResponses(...CLIENT_ROUTE_ERRORS)
@ApiExtraModels(VdSubjectModeRequestDto, VdNonSubjectModeRequestDto)
@Controller('vd/ent/v2')
export class VdReferenceVideoController {
  constructor(private readonly tasks: FamilyTasksService) {}

  @Post('reference2video')
  @HttpCode(200)
  @ClientRoute({ capability: 'reference2video', selection: modelFromBody })
  @MediaBody()
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
  @VdErrorResponses(...taskCreateErrors('vdq3', 'model'))
  create(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @MediaRulesBody((body, urls) => validateVdCreateRequest(body, { urls })) request: VdCreateRequest,
  ): Promise<VdTaskCreationResponseDto> {
    return this.tasks.create(VD_REFERENCE_VIDEO, ctx, principal, model, request);
  }

  @Get('tasks/:id/creations')
  @ClientRoute({ capability: 'reference2video', selection: 'none' })
  @ApiOperation({ summary: 'Query a vd task and its creations from the gateway’s record' })
  @ApiOkResponse({ type: VdCreationsResponse })
  @VdErrorResponses(ERROR_CAUSES.taskNotFound, noModelEnabled('reference2video', 'vd'))
  creations(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
  ): Promise<VdCreationsResponse> {
    return this.tasks.get(VD_REFERENCE_VIDEO, ctx, principal, id);
  }
}
