import { Injectable, Logger } from '@nestjs/common';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RedisConnection } from '../redis/redis.provider';
import { LocalAllowances, RateDecision, WindowTake } from './local-allowance';

export type { RateDecision } from './local-allowance';

/**
 * Per-account requests-per-minute, in fixed one-minute windows. With Redis the count is shared by
 * every instance and each instance takes from it in batches (`LocalAllowances`); without it the
 * count is this process's own and exact per request. One limiter per distinct limit value, since a
 * limiter has fixed points.
 */
@Injectable()
export class RateLimiterService {
  private readonly logger = new Logger('RateLimit');
  private readonly limiters = new Map<number, RateLimiterAbstract>();
  private readonly shared: LocalAllowances | null;

  constructor(private readonly redis: RedisConnection) {
    this.shared = redis.client
      ? new LocalAllowances((key, perMinute, points) => this.takeShared(key, perMinute, points))
      : null;
  }

  async consume(key: string, perMinute: number): Promise<RateDecision> {
    try {
      if (this.shared) return await this.shared.consume(key, perMinute);
      return decision(true, perMinute, await this.limiterFor(perMinute).consume(key, 1));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return decision(false, perMinute, rejection);
      // The store failed (Redis down): fail open rather than refuse every customer.
      this.logger.warn({ err: rejection }, 'rate limit store unavailable; allowing request');
      return { allowed: true, limit: perMinute, remaining: perMinute, resetSeconds: 60 };
    }
  }

  /** Adds `points` to the shared count; a count past the limit is an answer here, not a refusal. */
  private async takeShared(key: string, perMinute: number, points: number): Promise<WindowTake> {
    let res: RateLimiterRes;
    try {
      res = await this.limiterFor(perMinute).consume(key, points);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      res = rejection;
    }
    return { consumed: res.consumedPoints, msBeforeNext: res.msBeforeNext };
  }

  private limiterFor(points: number): RateLimiterAbstract {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      const options = { points, duration: 60, keyPrefix: `rl:rpm:${points}` };
      limiter = this.redis.client
        ? new RateLimiterRedis({ ...options, storeClient: this.redis.client })
        : new RateLimiterMemory(options);
      this.limiters.set(points, limiter);
    }
    return limiter;
  }
}

function decision(allowed: boolean, limit: number, res: RateLimiterRes): RateDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}
