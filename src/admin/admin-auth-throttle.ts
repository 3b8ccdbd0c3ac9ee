import { Global, Inject, Injectable, Module } from '@nestjs/common';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { AppConfig } from '../platform/config/app-config';
import { RedisConnection } from '../platform/redis/redis.provider';

export const ADMIN_AUTH_WINDOW_SECONDS = 600;

/** Where one address stands: its failures in the window, and the seconds it must still wait (0: none). */
export interface AuthStanding {
  failures: number;
  blockedForS: number;
}

/**
 * Guessing the admin token is throttled per client address: each failure costs a point, and an
 * address out of points gets 429 with Retry-After (even with the right token) until its window ends.
 * A success before that clears the address's failures, so a few typos do not count against it later.
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

  /** Where `address` stands. A store failure lets the attempt through. */
  async standing(address: string): Promise<AuthStanding> {
    const res = await this.limiter.get(address).catch(() => null);
    if (!res || res.consumedPoints < this.maxFailures) return { failures: res?.consumedPoints ?? 0, blockedForS: 0 };
    return { failures: res.consumedPoints, blockedForS: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
  }

  /** Counts one failure of `address` (a store failure is not counted, as above). */
  async failed(address: string): Promise<void> {
    await this.limiter.penalty(address, 1).catch(() => undefined);
  }

  /** Clears `address`'s failures after it authenticated (a store failure leaves them to expire). */
  async succeeded(address: string): Promise<void> {
    await this.limiter.delete(address).catch(() => undefined);
  }
}

/** Global, so every module that guards routes with `AdminGuard` shares the one count. */
@Global()
@Module({ providers: [AdminAuthThrottle], exports: [AdminAuthThrottle] })
export class AdminAuthModule {}
