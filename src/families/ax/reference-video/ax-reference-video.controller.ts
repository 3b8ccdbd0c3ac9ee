import { Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { ClientRoute } from '../../../core/accounts/guards/client-route.decorator';
import { modelFromBody } from '../../../core/accounts/guards/model-access.guard';
import { CurrentPrincipal, SelectedModel } from '../../../core/accounts/guards/request-principal.decorator';
import { Principal } from '../../../core/accounts/principal';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { Idempotent } from '../../common/idempotency.guard';
import { AxNewCreateBodyDto, AxOldCreateBodyDto } from './ax-create.dto';
import { FamilyTasksService } from '../../common/family-tasks.service';
import { MediaRulesBody } from '../../common/media-url-policy';
import type { AxCreateRequest } from './ax-create.rules';
import { validateAxCreateRequest } from './ax-create.rules';
import { AX_REFERENCE_VIDEO } from './ax-reference-video.kind';
import { AxCreatedResponse, AxTaskResponse } from './ax-task.responses';
import { Ctx } from '../../../platform/http/ctx.decorator';
import {
  CLIENT_ROUTE_ERRORS,
  ERROR_CAUSES,
  noModelEnabled,
  taskCreateErrors,
} from '../../../platform/http/openapi/error-responses';
import { AxErrorResponses } from '../ax.errors';
import type { RequestContext } from '../../../platform/http/request-context';
import { MediaBody } from '../../../platform/http/request-body';

@ApiTags('ax: reference-to-video')
@AxErrorResponses(...CLIENT_ROUTE_ERRORS)
@ApiExtraModels(AxNewCreateBodyDto, AxOldCreateBodyDto)
@Controller('ax/api/v1')
export class AxReferenceVideoController {
  constructor(private readonly tasks: FamilyTasksService) {}

  @Post('services/aigc/video-generation/video-synthesis')
  @HttpCode(200)
  @ClientRoute({ capability: 'reference2video', selection: modelFromBody })
  @MediaBody()
  @Idempotent()
  @ApiOperation({ summary: 'Create a reference-to-video task (protocol chosen by model)' })
  @ApiBody({
    schema: { oneOf: [{ $ref: getSchemaPath(AxNewCreateBodyDto) }, { $ref: getSchemaPath(AxOldCreateBodyDto) }] },
  })
  @ApiOkResponse({ type: AxCreatedResponse })
  @AxErrorResponses(...taskCreateErrors('wx2.7-r2v', 'model'))
  async create(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @MediaRulesBody(validateAxCreateRequest) request: AxCreateRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AxCreatedResponse> {
    const answer = await this.tasks.create(AX_REFERENCE_VIDEO, ctx, principal, model, request);
    // The body used the deprecated `input.reference_video_urls`.
    if (request.usedDeprecatedField) res.setHeader('Deprecation', 'true');
    return answer;
  }

  @Get('tasks/:task_id')
  @ClientRoute({ capability: 'reference2video', selection: 'none' })
  @ApiOperation({ summary: 'Query an ax task from the gateway’s record' })
  @ApiOkResponse({ type: AxTaskResponse })
  @AxErrorResponses(ERROR_CAUSES.taskNotFound, noModelEnabled('reference2video', 'ax'))
  get(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @Param('task_id') taskId: string,
  ): Promise<AxTaskResponse> {
    return this.tasks.get(AX_REFERENCE_VIDEO, ctx, principal, taskId);
  }
}
