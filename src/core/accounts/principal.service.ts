import { Injectable } from '@nestjs/common';
import { Clock } from '../../platform/time/clock';
import { hashApiKey } from './api-key-secret';
import { Principal } from './principal';
import { AccountsRepository } from './repositories/accounts.repository';
import { ApiKeysRepository } from './repositories/api-keys.repository';
import { ModelGrantsRepository } from './repositories/model-grants.repository';

const CACHE_TTL_MS = 5000;
/** Bounds memory when a flood of random keys is presented; the oldest entries go first. */
const CACHE_MAX_ENTRIES = 10000;
const TOUCH_EVERY_MS = 60000;

interface CachedPrincipal {
  principal: Principal | null;
  expiresAt: number | null;
  revoked: boolean;
  disabled: boolean;
  cachedAt: number;
}

/**
 * Resolves an API key to its account, grants and restrictions. A short cache keeps the database
 * off the hot path; any admin change on this instance drops it at once (revocation holds here
 * immediately, and on other instances within the cache TTL).
 */
@Injectable()
export class PrincipalService {
  private readonly cache = new Map<string, CachedPrincipal>();
  /** Loads in progress, shared by concurrent requests with the same key. */
  private readonly loading = new Map<string, Promise<CachedPrincipal>>();
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly keys: ApiKeysRepository,
    private readonly grants: ModelGrantsRepository,
    private readonly clock: Clock,
  ) {}

  /** The principal for a presented key, or null when the key is unknown, revoked, expired or its account disabled. */
  async resolve(secret: string): Promise<Principal | null> {
    const hash = hashApiKey(secret);
    const now = this.clock.nowMs();
    let entry = this.cache.get(hash);
    if (!entry || now - entry.cachedAt > CACHE_TTL_MS) entry = await this.loadOnce(hash, now);
    if (!entry.principal || entry.revoked || entry.disabled) return null;
    if (entry.expiresAt !== null && entry.expiresAt <= now) return null;
    this.touch(entry.principal.apiKey.id, now);
    return entry.principal;
  }

  /** Drops every cached principal (called after any admin change). */
  invalidate(): void {
    this.cache.clear();
  }

  private loadOnce(hash: string, now: number): Promise<CachedPrincipal> {
    let pending = this.loading.get(hash);
    if (!pending) {
      pending = this.load(hash, now)
        .then((entry) => {
          this.cache.delete(hash);
          this.cache.set(hash, entry);
          for (const oldest of this.cache.keys()) {
            if (this.cache.size <= CACHE_MAX_ENTRIES) break;
            this.cache.delete(oldest);
          }
          return entry;
        })
        .finally(() => this.loading.delete(hash));
      this.loading.set(hash, pending);
    }
    return pending;
  }

  private async load(hash: string, now: number): Promise<CachedPrincipal> {
    const key = await this.keys.findByHash(hash);
    const miss = { principal: null, expiresAt: null, revoked: false, disabled: false, cachedAt: now };
    if (!key) return miss;
    const [account, grants] = await Promise.all([this.accounts.findById(key.accountId), this.grants.listForAccount(key.accountId)]);
    if (!account) return miss;
    return {
      principal: {
        account: { id: account.id, name: account.name, rateLimitRpm: account.rateLimitRpm, maxConcurrentTasks: account.maxConcurrentTasks },
        apiKey: { id: key.id, prefix: key.prefix, models: key.models },
        grants: new Map(grants.map((g) => [g.model, g.capabilities])),
      },
      expiresAt: key.expiresAt,
      revoked: key.revokedAt !== null,
      disabled: account.disabled,
      cachedAt: now,
    };
  }

  /** Records last use at most once a minute per key, off the request path. */
  private touch(keyId: string, now: number): void {
    if (now - (this.lastTouched.get(keyId) ?? 0) < TOUCH_EVERY_MS) return;
    this.lastTouched.set(keyId, now);
    void this.keys.touch(keyId, now).catch(() => undefined);
  }
}
