import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { AppConfig } from '../platform/config/app-config';
import { GatewayError } from '../platform/errors';
import { ConsoleAsset, consoleCsp, loadConsoleAssets } from './console-assets';

/**
 * The operator console: static files only. It holds no data and no secret; every figure comes from
 * the admin API, called by the page with the token the operator typed (kept in sessionStorage).
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleController {
  private readonly assets: ReadonlyMap<string, ConsoleAsset> = loadConsoleAssets();
  private readonly csp: string;

  constructor(@Inject(AppConfig) config: AppConfig) {
    this.csp = consoleCsp(config.PUBLIC_BASE_URL);
  }

  @Get()
  index(@Res() res: Response): void {
    this.send(res, 'index.html');
  }

  @Get('vendor/:file')
  vendor(@Param('file') file: string, @Res() res: Response): void {
    this.send(res, `vendor/${file}`);
  }

  @Get(':file')
  file(@Param('file') file: string, @Res() res: Response): void {
    this.send(res, file);
  }

  private send(res: Response, name: string): void {
    const asset = this.assets.get(name);
    if (!asset) throw GatewayError.notFound('Console file');
    res.setHeader('Content-Security-Policy', this.csp);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-cache');
    res.type(asset.contentType).send(asset.body);
  }
}
