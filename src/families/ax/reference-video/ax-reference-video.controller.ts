import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { ClientRoute } from '../../../core/accounts/guards/client-route.decorator';
import { modelFromBody } from '../../../core/accounts/guards/model-access.guard';
import { CurrentPrincipal, SelectedModel } from '../../../core/accounts/guards/request-principal.decorator';
import { Principal } from '../../../core/accounts/principal';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { Idempotent } from '../../common/idempotency.guard';
import { AxNewCreateBodyDto, AxOldCreateBodyDto } from './ax-create.dto';
import { AxReferenceVideoService } from './ax-reference-video.service';
import { AxCreatedResponse, AxTaskResponse } from './ax-task.responses';
import { Ctx } from '../../../platform/http/ctx.decorator';
import type { RequestContext } from '../../../platform/http/request-context';

@ApiTags('family B: reference-to-video')
@ApiExtraModels(AxNewCreateBodyDto, AxOldCreateBodyDto)
@Controller('ax/api/v1')
export class AxReferenceVideoController {
  constructor(private readonly service: AxReferenceVideoService) {}

  @Post('services/aigc/video-generation/video-synthesis')
  @HttpCode(200)
  @ClientRoute({ capability: 'reference2video', selection: modelFromBody })
  @Idempotent()
  @ApiOperation({ summary: 'Create a reference-to-video task (protocol chosen by model)' })
  @ApiBody({
    schema: { oneOf: [{ $ref: getSchemaPath(AxNewCreateBodyDto) }, { $ref: getSchemaPath(AxOldCreateBodyDto) }] },
  })
  @ApiOkResponse({ type: AxCreatedResponse })
  async create(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AxCreatedResponse> {
    const { answer, deprecatedField } = await this.service.create(ctx, principal, model, body);
    if (deprecatedField) res.setHeader('Deprecation', 'true');
    return answer;
  }

  @Get('tasks/:task_id')
  @ClientRoute()
  @ApiOperation({ summary: 'Query a family B task from the gateway’s record' })
  @ApiOkResponse({ type: AxTaskResponse })
  get(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @Param('task_id') taskId: string,
  ): Promise<AxTaskResponse> {
    return this.service.get(ctx, principal, taskId);
  }
}
