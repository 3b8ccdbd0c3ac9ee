import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash } from 'crypto';
import { Repository } from 'typeorm';
import { insertRow } from '../../platform/database/insert-row';
import { isUniqueViolation } from '../../platform/database/transaction-runner';
import { GatewayError } from '../../platform/errors';
import { Clock } from '../../platform/time/clock';
import { IdempotencyRecordEntity } from './entities/idempotency-record.entity';

const KEEP_MS = 24 * 3600 * 1000;
/** An in-flight record this old belongs to a request that died with its process. */
const STALE_IN_FLIGHT_MS = 5 * 60 * 1000;

export type IdempotencyStart = { kind: 'proceed' } | { kind: 'replay'; status: number; body: unknown; headers: Record<string, string> };

export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * `Idempotency-Key` for every task-creating POST (CONTRACT §7): one row per account and key,
 * claimed by insert (the primary key decides races on any number of instances).
 */
@Injectable()
export class IdempotencyService {
  constructor(
    @InjectRepository(IdempotencyRecordEntity) private readonly repo: Repository<IdempotencyRecordEntity>,
    private readonly clock: Clock,
  ) {}

  static fingerprint(method: string, path: string, body: unknown): string {
    return createHash('sha256')
      .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
      .digest('hex');
  }

  async begin(accountId: string, key: string, requestHash: string): Promise<IdempotencyStart> {
    const now = this.clock.nowMs();
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await insertRow(this.repo.manager, IdempotencyRecordEntity, {
          accountId,
          key,
          requestHash,
          state: 'in_flight',
          responseStatus: null,
          responseBody: null,
          responseHeaders: null,
          createdAt: now,
          expiresAt: now + KEEP_MS,
        });
        return { kind: 'proceed' };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      const existing = await this.repo.findOneBy({ accountId, key });
      if (!existing) continue;
      const stale = existing.expiresAt <= now || (existing.state === 'in_flight' && now - existing.createdAt > STALE_IN_FLIGHT_MS);
      if (stale) {
        await this.repo.delete({ accountId, key, createdAt: existing.createdAt });
        continue;
      }
      if (existing.requestHash !== requestHash) {
        throw new GatewayError(422, 'idempotency_mismatch', 'This Idempotency-Key was used with a different request body.', 'Idempotency-Key');
      }
      if (existing.state === 'in_flight') {
        throw new GatewayError(409, 'idempotency_in_progress', 'A request with this Idempotency-Key is still being processed.', 'Idempotency-Key');
      }
      return { kind: 'replay', status: existing.responseStatus ?? 200, body: existing.responseBody, headers: existing.responseHeaders ?? {} };
    }
    throw new GatewayError(409, 'idempotency_in_progress', 'A request with this Idempotency-Key is still being processed.', 'Idempotency-Key');
  }

  async complete(accountId: string, key: string, response: StoredResponse): Promise<void> {
    await this.repo.update({ accountId, key }, { state: 'done', responseStatus: response.status, responseBody: response.body as never, responseHeaders: response.headers });
  }

  /** Forgets a key whose request failed, so a corrected retry with the same key works. */
  async abandon(accountId: string, key: string): Promise<void> {
    await this.repo.delete({ accountId, key, state: 'in_flight' });
  }
}
