import { applyDecorators, Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ClientRoute } from '../../core/accounts/guards/client-route.decorator';
import { modelFromBody } from '../../core/accounts/guards/model-access.guard';
import { CurrentPrincipal, SelectedModel } from '../../core/accounts/guards/request-principal.decorator';
import { Principal } from '../../core/accounts/principal';
import { ModelDescriptor } from '../../core/models/model-catalogue';
import { Idempotent } from '../../families/common/idempotency.guard';
import { Ctx } from '../../platform/http/ctx.decorator';
import type { RequestContext } from '../../platform/http/request-context';
import { RulesQuery } from '../../platform/validation/rules-body.decorator';
import { MediaBody } from '../../platform/http/request-body';
import { CLIENT_ROUTE_ERRORS, MEDIA_CONTENT, taskCreateErrors } from '../../platform/http/openapi/error-responses';
import { RESULT_ERROR_CAUSES } from '../../result-serving/result-errors';
import { OPENAI_ERROR_CAUSES, OpenAiErrorResponses, notOffered, notOfferedCause } from '../openai.errors';
import {
  CreateVideoBodyDto,
  VideoContentVariant,
  VideoListQuery,
  VideoReferenceDto,
  readListQuery,
  readVariant,
} from './video.requests';
import { VideoDeletedResponse, VideoListResponse, VideoResponse } from './video.responses';
import { readVideoUpload } from './video-upload';
import { UploadedImage, VideosService } from './videos.service';

const VIDEOS = 'v1/videos';

type UploadRequest = Request & { files?: Record<string, UploadedImage[]> };

@ApiTags('OpenAI-compatible videos (ax and vd)')
@ApiExtraModels(VideoReferenceDto)
@OpenAiErrorResponses(...CLIENT_ROUTE_ERRORS)
// The paths are on the handlers, not the controller: a controller's first path segment names the
// family it serves, and this one serves several.
@Controller()
export class VideosController {
  constructor(private readonly videos: VideosService) {}

  @Post(VIDEOS)
  @HttpCode(200)
  @ClientRoute({ capability: 'reference2video', selection: modelFromBody })
  @MediaBody({ multipart: readVideoUpload })
  @Idempotent()
  @ApiOperation({
    summary: "Create a video with an ax or vd model: size and seconds mapped by the family's table",
  })
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiBody({ type: CreateVideoBodyDto })
  @ApiOkResponse({ type: VideoResponse })
  @OpenAiErrorResponses(...taskCreateErrors('wx2.7-r2v', 'model'))
  create(
    @Ctx() ctx: RequestContext,
    @CurrentPrincipal() principal: Principal,
    @SelectedModel() model: ModelDescriptor,
    @Body() body: Record<string, unknown>,
    @Req() req: UploadRequest,
  ): Promise<VideoResponse> {
    return this.videos.create(ctx, principal, model, body, req.files?.input_reference?.[0]);
  }

  @Get(VIDEOS)
  @ClientRoute()
  @ApiOperation({ summary: "List the caller's videos (ax and vd), by ID" })
  @ApiQuery({ name: 'after', required: false })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } })
  @ApiQuery({ name: 'order', required: false, enum: ['asc', 'desc'] })
  @ApiOkResponse({ type: VideoListResponse })
  @OpenAiErrorResponses(OPENAI_ERROR_CAUSES.listQuery)
  list(
    @CurrentPrincipal() principal: Principal,
    @RulesQuery(readListQuery) query: VideoListQuery,
  ): Promise<VideoListResponse> {
    return this.videos.list(principal, query);
  }

  /**
   * Listed methods only (no catch-all): a HEAD would be documented yet answer without a body. Declared
   * before `:video_id`, which would otherwise read `characters` as a video ID.
   */
  @Get(`${VIDEOS}/characters`)
  @NotOffered('Characters: not offered (400)', 'GET /v1/videos/characters')
  unsupportedList(@Req() req: Request): never {
    throw notOffered(req.method, req.path);
  }

  @Get(`${VIDEOS}/characters/:character_id`)
  @NotOffered('A character: not offered (400)', 'GET /v1/videos/characters/ch_123', 'character_id')
  unsupportedRead(@Req() req: Request): never {
    throw notOffered(req.method, req.path);
  }

  @Get(`${VIDEOS}/:video_id`)
  @ClientRoute()
  @ApiOperation({ summary: 'The Video object of an ax or vd task, wherever it was created' })
  @ApiOkResponse({ type: VideoResponse })
  @OpenAiErrorResponses(OPENAI_ERROR_CAUSES.videoNotFound)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('video_id') id: string): Promise<VideoResponse> {
    return this.videos.retrieve(principal, id);
  }

  @Get(`${VIDEOS}/:video_id/content`)
  @ClientRoute()
  @ApiOperation({ summary: 'Stream the kept copy of the video (or its thumbnail) with Range' })
  @ApiQuery({ name: 'variant', required: false, enum: ['video', 'thumbnail'] })
  @ApiProduces('video/mp4', 'image/jpeg')
  @ApiOkResponse({ description: 'The whole file', content: MEDIA_CONTENT })
  @ApiResponse({ status: 206, description: 'The requested byte range (`Range`)', content: MEDIA_CONTENT })
  @ApiResponse({ status: 416, description: 'The range is outside the file (`Content-Range` gives its size); no body' })
  @OpenAiErrorResponses(OPENAI_ERROR_CAUSES.contentNotFound, RESULT_ERROR_CAUSES.gone, RESULT_ERROR_CAUSES.unavailable)
  content(
    @CurrentPrincipal() principal: Principal,
    @Param('video_id') id: string,
    @RulesQuery(readVariant) variant: VideoContentVariant,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.videos.content(principal, id, variant, req, res);
  }

  @Delete(`${VIDEOS}/:video_id`)
  @ClientRoute()
  @ApiOperation({
    summary:
      'Delete a finished video: gone from every route (its native query too), its kept files deleted; charges stay',
  })
  @ApiOkResponse({ type: VideoDeletedResponse })
  @OpenAiErrorResponses(OPENAI_ERROR_CAUSES.notDeletable, OPENAI_ERROR_CAUSES.videoNotFound)
  delete(@CurrentPrincipal() principal: Principal, @Param('video_id') id: string): Promise<VideoDeletedResponse> {
    return this.videos.delete(principal, id);
  }

  /** Remix, edits, extensions, characters: routes of the vendor's API that no family here can serve. */
  @Post(`${VIDEOS}/:video_id/remix`)
  @NotOffered('Remix: not offered (400)', 'POST /v1/videos/video_123/remix', 'video_id')
  unsupportedRemix(@Req() req: Request): never {
    throw notOffered(req.method, req.path);
  }

  @Post(['edits', 'extensions', 'characters'].map((p) => `${VIDEOS}/${p}`))
  @NotOffered('Edits, extensions and characters: not offered (400)', 'POST /v1/videos/edits')
  unsupportedCreate(@Req() req: Request): never {
    throw notOffered(req.method, req.path);
  }
}

/**
 * A route of the vendor's video API that no family here serves, documented as what it is: its path
 * parameter, any body (never read for an answer), and the 400 it always gives; no success answer.
 */
function NotOffered(summary: string, example: string, pathParam?: string): MethodDecorator {
  const [method, path] = example.split(' ');
  return applyDecorators(
    ClientRoute(),
    ApiOperation({ summary }),
    ...(pathParam ? [ApiParam({ name: pathParam, type: String })] : []),
    ...(method === 'POST'
      ? [
          ApiBody({
            required: false,
            description: 'Any body: the answer is 400 whatever is sent',
            schema: { type: 'object' },
          }),
        ]
      : []),
    OpenAiErrorResponses(notOfferedCause(method, path)),
  );
}
