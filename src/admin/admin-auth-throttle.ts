import { Global, Inject, Injectable, Module } from '@nestjs/common';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { AppConfig } from '../platform/config/app-config';
import { RedisConnection } from '../platform/redis/redis.provider';

export const ADMIN_AUTH_WINDOW_SECONDS = 600;

/**
 * Guessing the admin token is throttled per client address: each failure costs a point, and an
 * address out of points gets 429 with Retry-After (even with the right token) until its window ends.
 * Shared through Redis when there is one, so every instance counts the same failures.
 */
@Injectable()
export class AdminAuthThrottle {
  private readonly limiter: RateLimiterAbstract;
  /** Failed sign-ins an address may make per window (`ADMIN_AUTH_MAX_FAILURES`). */
  readonly maxFailures: number;

  constructor(redis: RedisConnection, @Inject(AppConfig) config: AppConfig) {
    this.maxFailures = config.ADMIN_AUTH_MAX_FAILURES;
    const options = {
      points: this.maxFailures,
      duration: ADMIN_AUTH_WINDOW_SECONDS,
      keyPrefix: 'rl:admin-auth',
    };
    this.limiter = redis.client
      ? new RateLimiterRedis({ ...options, storeClient: redis.client })
      : new RateLimiterMemory(options);
  }

  /** Seconds until `address` may try again, or 0 when it may try now. A store failure lets the attempt through. */
  async blockedFor(address: string): Promise<number> {
    const res = await this.limiter.get(address).catch(() => null);
    if (!res || res.consumedPoints < this.maxFailures) return 0;
    return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  }

  /** Counts one failure of `address` (a store failure is not counted, as above). */
  async failed(address: string): Promise<void> {
    await this.limiter.penalty(address, 1).catch(() => undefined);
  }
}

/** Global, so every module that guards routes with `AdminGuard` shares the one count. */
@Global()
@Module({ providers: [AdminAuthThrottle], exports: [AdminAuthThrottle] })
export class AdminAuthModule {}
