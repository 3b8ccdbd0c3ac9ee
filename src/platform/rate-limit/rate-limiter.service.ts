import { Injectable, Logger } from '@nestjs/common';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RedisConnection } from '../redis/redis.provider';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/**
 * Per-account requests-per-minute, atomic in Redis when configured (shared by every instance),
 * in process otherwise. One limiter per distinct limit value, since a limiter has fixed points.
 */
@Injectable()
export class RateLimiterService {
  private readonly logger = new Logger('RateLimit');
  private readonly limiters = new Map<number, RateLimiterAbstract>();

  constructor(private readonly redis: RedisConnection) {}

  async consume(key: string, perMinute: number): Promise<RateDecision> {
    const limiter = this.limiterFor(perMinute);
    try {
      const res = await limiter.consume(key, 1);
      return decision(true, perMinute, res);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return decision(false, perMinute, rejection);
      // The store failed (Redis down): fail open rather than refuse every customer.
      this.logger.warn({ err: rejection }, 'rate limit store unavailable; allowing request');
      return { allowed: true, limit: perMinute, remaining: perMinute, resetSeconds: 60 };
    }
  }

  private limiterFor(points: number): RateLimiterAbstract {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      const options = { points, duration: 60, keyPrefix: `rl:rpm:${points}` };
      limiter = this.redis.client ? new RateLimiterRedis({ ...options, storeClient: this.redis.client }) : new RateLimiterMemory(options);
      this.limiters.set(points, limiter);
    }
    return limiter;
  }
}

function decision(allowed: boolean, limit: number, res: RateLimiterRes): RateDecision {
  return { allowed, limit, remaining: Math.max(0, res.remainingPoints), resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}
