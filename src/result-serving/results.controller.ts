import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiErrorResponses, ERROR_CAUSES, MEDIA_CONTENT } from '../platform/http/openapi/error-responses';
import { RESULT_ERROR_CAUSES } from './result-errors';
import { ResultServing } from './result-serving.service';

/** Signed result URLs (GET, and HEAD through Express's GET routes); the URL itself is the credential. */
@ApiTags('results')
@Controller('results')
export class ResultsController {
  constructor(private readonly serving: ResultServing) {}

  @Get(':token')
  @ApiOperation({ summary: 'A result file by its signed URL (no API key: the URL is the credential); Range and HEAD' })
  @ApiOkResponse({ description: 'The whole file', content: MEDIA_CONTENT })
  @ApiResponse({ status: 206, description: 'The requested byte range (`Range`)', content: MEDIA_CONTENT })
  @ApiResponse({ status: 416, description: 'The range is outside the file (`Content-Range` gives its size); no body' })
  @ApiErrorResponses(null, [
    RESULT_ERROR_CAUSES.invalidLink,
    RESULT_ERROR_CAUSES.notFound,
    RESULT_ERROR_CAUSES.gone,
    ERROR_CAUSES.internal,
    RESULT_ERROR_CAUSES.unavailable,
  ])
  serve(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serving.serve(token, req, res);
  }
}
