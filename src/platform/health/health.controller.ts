import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { RedisConnection } from '../redis/redis.provider';
import { ReadinessDetails } from './readiness-details';

export class AliveResponse {
  @ApiProperty({ example: 'ok' }) status: string;
}

export class ReadinessResponse {
  @ApiProperty({ enum: ['ok', 'unavailable'] }) status: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', enum: ['ok', 'down'] },
    example: { database: 'ok', redis: 'ok' },
    description: 'The database, and Redis when configured',
  })
  checks: Record<string, string>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Information only (e.g. the result store’s fill); never makes the gateway unready',
  })
  details?: Record<string, unknown>;
}

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: RedisConnection,
    private readonly details: ReadinessDetails,
  ) {}

  /** Alive: the process answers. */
  @Get('healthz')
  @HttpCode(200)
  @ApiOkResponse({ type: AliveResponse })
  alive(): AliveResponse {
    return { status: 'ok' };
  }

  /** Ready: the database (and Redis when configured) answer; `details` informs (e.g. the result store's fill). */
  @Get('readyz')
  @ApiOkResponse({ type: ReadinessResponse })
  @ApiResponse({
    status: 503,
    description: 'A dependency does not answer',
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(ReadinessResponse) },
        examples: { database_down: { value: { status: 'unavailable', checks: { database: 'down', redis: 'ok' } } } },
      },
    },
  })
  async ready(@Res() res: Response): Promise<void> {
    const checks: Record<string, string> = {};
    checks.database = await this.dataSource.query('SELECT 1').then(
      () => 'ok',
      () => 'down',
    );
    if (this.redis.client)
      checks.redis = await this.redis.client.ping().then(
        () => 'ok',
        () => 'down',
      );
    const ok = Object.values(checks).every((v) => v === 'ok');
    const details = await this.details.collect();
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', checks, ...(details ? { details } : {}) });
  }
}
