import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { RedisConnection } from '../redis/redis.provider';
import { ReadinessDetails } from './readiness-details';

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
  alive(): { status: string } {
    return { status: 'ok' };
  }

  /** Ready: the database (and Redis when configured) answer; `details` informs (e.g. the result store's fill). */
  @Get('readyz')
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
