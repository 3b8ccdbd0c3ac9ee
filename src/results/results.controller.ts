import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ResultServing } from './result-serving.service';

/** Signed result URLs (GET, and HEAD through Express's GET routes); the URL itself is the credential. */
@ApiExcludeController()
@Controller('results')
export class ResultsController {
  constructor(private readonly serving: ResultServing) {}

  @Get(':token')
  serve(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serving.serve(token, req, res);
  }
}
