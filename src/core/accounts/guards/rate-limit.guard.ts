import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { AppConfig } from '../../../platform/config/app-config';
import { GatewayError } from '../../../platform/errors';
import { RateLimiterService } from '../../../platform/rate-limit/rate-limiter.service';
import { AuthenticatedRequest } from './authenticated-request';

/** Per-account requests per minute; 429 `rate_limit_exceeded` with Retry-After and RateLimit-* headers. */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: RateLimiterService,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const limit = req.principal.account.rateLimitRpm ?? this.config.DEFAULT_RATE_LIMIT_RPM;
    const decision = await this.limiter.consume(req.principal.account.id, limit);
    const limitText = String(decision.limit);
    const remaining = String(decision.remaining);
    const reset = String(decision.resetSeconds);
    res.setHeader('RateLimit-Limit', limitText);
    res.setHeader('RateLimit-Remaining', remaining);
    res.setHeader('RateLimit-Reset', reset);
    if (!decision.allowed) {
      const headers = { 'RateLimit-Limit': limitText, 'RateLimit-Remaining': remaining, 'RateLimit-Reset': reset };
      throw GatewayError.rateLimited(
        `Rate limit of ${decision.limit} requests per minute exceeded; retry after back-off.`,
        decision.resetSeconds,
        headers,
      );
    }
    return true;
  }
}
