import { Injectable, OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { Clock } from '../../platform/time/clock';
import { PrincipalService } from '../accounts/principal.service';
import type { Actor } from '../audit/audit.types';
import { hashOperatorToken } from './operator-token';
import { OperatorsRepository } from './operators.repository';

/** As the API keys' cache: how long another instance may take to see a change without Redis. */
const CACHE_TTL_MS = 5000;
const CACHE_MAX_ENTRIES = 1000;

/**
 * Resolves an operator token to who it belongs to: one hash lookup, then a short cache. Any change
 * to an operator drops the cache at once, on this instance and on every other one, through the
 * same announcement as API keys (`PrincipalService.invalidate`, over Redis when REDIS_URL is set).
 */
@Injectable()
export class OperatorDirectory implements OnModuleInit {
  /** Token hash -> operator; null for a hash that matched no enabled operator. */
  private readonly cache: LRUCache<string, { actor: Actor | null }>;
  /** Bumped on every invalidation: a lookup that began before one is answered but not cached. */
  private generation = 0;

  constructor(
    private readonly operators: OperatorsRepository,
    private readonly principals: PrincipalService,
    clock: Clock,
  ) {
    this.cache = new LRUCache({
      max: CACHE_MAX_ENTRIES,
      ttl: CACHE_TTL_MS,
      ttlResolution: 0,
      perf: { now: () => clock.nowMs() },
    });
  }

  onModuleInit(): void {
    this.principals.onInvalidated(() => {
      this.generation += 1;
      this.cache.clear();
    });
  }

  /** The operator a token belongs to, or null when it is unknown or its operator disabled. */
  async resolve(token: string): Promise<Actor | null> {
    const hash = hashOperatorToken(token);
    const cached = this.cache.get(hash);
    if (cached) return cached.actor;
    const generation = this.generation;
    const found = await this.operators.findByHash(hash);
    const actor = found && !found.disabled ? { id: found.id, name: found.name, role: found.role } : null;
    if (generation === this.generation) this.cache.set(hash, { actor });
    return actor;
  }

  /** After a change is committed: every instance forgets what it knew of every token. */
  invalidate(): Promise<void> {
    return this.principals.invalidate();
  }
}
