import { Injectable, Logger, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import type Redis from 'ioredis';
import { LRUCache } from 'lru-cache';
import { RedisConnection } from '../../platform/redis/redis.provider';
import { Clock } from '../../platform/time/clock';
import { hashApiKey } from './api-key-secret';
import { Principal } from './principal';
import { AccountsRepository } from './repositories/accounts.repository';
import { ApiKeysRepository } from './repositories/api-keys.repository';
import { ModelGrantsRepository } from './repositories/model-grants.repository';

const CACHE_TTL_MS = 5000;
/**
 * Bounds each of the two caches (keys found, keys not found); the least recently used go first.
 * Apart, so that a flood of random keys fills only the second and never pushes a real key out of
 * the first (each real key pushed out would cost three reads on its next request).
 */
const CACHE_MAX_ENTRIES = 10000;
const TOUCH_EVERY_MS = 60000;
/** Redis channel on which any instance announces an admin change: every instance drops its cache. */
export const PRINCIPALS_INVALIDATED_CHANNEL = 'gw:principals:invalidated';

interface CachedPrincipal {
  principal: Principal | null;
  expiresAt: number | null;
  revoked: boolean;
  disabled: boolean;
}

/**
 * Resolves an API key to its account, grants and restrictions. A short cache keeps the database
 * off the hot path; any admin change drops it at once: on this instance directly, and on every
 * other instance through a Redis message when REDIS_URL is set (without Redis, other instances
 * sharing the database see the change within the cache TTL, 5 s).
 */
@Injectable()
export class PrincipalService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('PrincipalService');
  private subscriber: Redis | null = null;
  private readonly cache = this.newCache<CachedPrincipal>(CACHE_TTL_MS);
  /** Hashes that matched no key (or a key whose account is gone), cleared with `cache` on any admin change. */
  private readonly misses = this.newCache<CachedPrincipal>(CACHE_TTL_MS);
  /** Loads in progress, shared by concurrent requests with the same key. */
  private readonly loading = new Map<string, Promise<CachedPrincipal>>();
  /** Others' caches dropped with these (`onInvalidated`). */
  private readonly listeners: Array<() => void> = [];
  /** Keys whose last use was recorded within the last minute. */
  private readonly touched = this.newCache<true>(TOUCH_EVERY_MS);

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly keys: ApiKeysRepository,
    private readonly grants: ModelGrantsRepository,
    private readonly clock: Clock,
    @Optional() private readonly redis?: RedisConnection,
  ) {}

  async onModuleInit(): Promise<void> {
    const client = this.redis?.client;
    if (!client) return;
    this.subscriber = client.duplicate();
    this.subscriber.on('message', () => this.clear());
    this.subscriber.on('error', (err: Error) =>
      this.logger.warn({ err: err.message }, 'principal invalidation channel error'),
    );
    await this.subscriber.subscribe(PRINCIPALS_INVALIDATED_CHANNEL);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }

  /** The principal for a presented key, or null when the key is unknown, revoked, expired or its account disabled. */
  async resolve(secret: string): Promise<Principal | null> {
    const hash = hashApiKey(secret);
    const now = this.clock.nowMs();
    const entry = this.cache.get(hash) ?? this.misses.get(hash) ?? (await this.loadOnce(hash));
    if (!entry.principal || entry.revoked || entry.disabled) return null;
    if (entry.expiresAt !== null && entry.expiresAt <= now) return null;
    this.touch(entry.principal.apiKey.id, now);
    return entry.principal;
  }

  /**
   * Drops every cached principal (called after any admin change), here and, through Redis, on
   * every other instance before the admin call answers. A Redis failure is logged, not thrown:
   * the change is committed, and other instances see it within the cache TTL.
   */
  async invalidate(): Promise<void> {
    this.clear();
    const client = this.redis?.client;
    if (!client) return;
    try {
      await client.publish(PRINCIPALS_INVALIDATED_CHANNEL, String(this.clock.nowMs()));
    } catch (error) {
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'could not announce a principal change; other instances see it within the cache TTL',
      );
    }
  }

  /** Runs `listener` whenever the caches are dropped: on a change here, or one announced by another instance. */
  onInvalidated(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Expiry reads the injected clock; `ttlResolution: 0` so that no timer is set per lookup. */
  private newCache<V extends object | true>(ttl: number): LRUCache<string, V> {
    return new LRUCache<string, V>({
      max: CACHE_MAX_ENTRIES,
      ttl,
      ttlResolution: 0,
      perf: { now: () => this.clock.nowMs() },
    });
  }

  private loadOnce(hash: string): Promise<CachedPrincipal> {
    let pending = this.loading.get(hash);
    if (!pending) {
      pending = this.load(hash)
        .then((entry) => {
          this.cache.delete(hash);
          this.misses.delete(hash);
          (entry.principal ? this.cache : this.misses).set(hash, entry);
          return entry;
        })
        .finally(() => this.loading.delete(hash));
      this.loading.set(hash, pending);
    }
    return pending;
  }

  private async load(hash: string): Promise<CachedPrincipal> {
    const key = await this.keys.findByHash(hash);
    const miss = { principal: null, expiresAt: null, revoked: false, disabled: false };
    if (!key) return miss;
    const [account, grants] = await Promise.all([
      this.accounts.findById(key.accountId),
      this.grants.listForAccount(key.accountId),
    ]);
    if (!account) return miss;
    return {
      principal: {
        account: {
          id: account.id,
          name: account.name,
          rateLimitRpm: account.rateLimitRpm,
          maxConcurrentTasks: account.maxConcurrentTasks,
        },
        apiKey: { id: key.id, prefix: key.prefix, models: key.models },
        grants: new Map(grants.map((g) => [g.model, g.capabilities])),
      },
      expiresAt: key.expiresAt,
      revoked: key.revokedAt !== null,
      disabled: account.disabled,
    };
  }

  private clear(): void {
    this.cache.clear();
    this.misses.clear();
    for (const listener of this.listeners) listener();
  }

  /** Records last use at most once a minute per key, off the request path. */
  private touch(keyId: string, now: number): void {
    if (this.touched.has(keyId)) return;
    this.touched.set(keyId, true);
    void this.keys.touch(keyId, now).catch(() => undefined);
  }
}
