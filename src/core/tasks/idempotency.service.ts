import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash } from 'crypto';
import { EntityManager, IsNull, Repository } from 'typeorm';
import { insertRow } from '../../platform/database/insert-row';
import { canonicalJson } from '../../platform/json/canonical-json';
import { isUniqueViolation } from '../../platform/database/transaction-runner';
import { GatewayError, IN_PROGRESS_RETRY_AFTER_SECONDS } from '../../platform/errors';
import type { RequestContext } from '../../platform/http/request-context';
import { Clock } from '../../platform/time/clock';
import { IdempotencyRecordEntity } from './entities/idempotency-record.entity';
import { TaskEntity } from './entities/task.entity';
import { creationFailed } from './task-lifecycle.service';
import { TasksRepository } from './tasks.repository';

const KEEP_MS = 24 * 3600 * 1000;
/** A record of an older version (in flight, no task named) this old belongs to a request that died with its process. */
const STALE_IN_FLIGHT_MS = 5 * 60 * 1000;

export type IdempotencyStart =
  | { kind: 'proceed' }
  | { kind: 'replay'; status: number; body: unknown; headers: Record<string, string> }
  /** A task exists for the key but its answer was never stored (a crash, or storing failed): answer from the task. */
  | { kind: 'task'; task: TaskEntity };

export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** The key was tied to another request's task while this one was creating its own (its transaction rolled back). */
export class IdempotencyKeyTakenError extends Error {
  constructor() {
    super('The Idempotency-Key was tied to another task first.');
    this.name = 'IdempotencyKeyTakenError';
  }
}

/** 409 while the first request with the key is still being answered: retry after a second. */
export function idempotencyInProgress(): GatewayError {
  return new GatewayError(
    409,
    'idempotency_in_progress',
    'A request with this Idempotency-Key is still being processed.',
    'Idempotency-Key',
    { headers: { 'Retry-After': String(IN_PROGRESS_RETRY_AFTER_SECONDS) } },
  );
}

/**
 * `Idempotency-Key` for every task-creating POST. The key is written in the task's
 * creation transaction (slot, hold, record and key commit together, `bind`), so it exists exactly
 * when a task does:
 * - no record: no task was created under the key (or its creation failed before committing): proceed;
 * - a stored answer: replay it;
 * - a task whose creation is still open (`submitting`): 409, the first request is in flight (after a
 *   crash, until the sync worker reconciles it, at most `UPSTREAM_TIMEOUT_MS` + 5 s later, or a sync lease (15 s)
 *   more when the instance reconciling it dies too);
 * - a task whose creation failed (upstream rejection, never confirmed): nothing was created for the
 *   caller, the record is dropped and the request proceeds;
 * - any other task: the created answer is rebuilt from the task record.
 * Validation failures never reach the transaction, so they are not remembered.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    @InjectRepository(IdempotencyRecordEntity) private readonly repo: Repository<IdempotencyRecordEntity>,
    private readonly tasks: TasksRepository,
    private readonly clock: Clock,
  ) {}

  /** The request a key is compared by: method, path and the meaning of its JSON body (member order aside). */
  static fingerprint(method: string, path: string, body: unknown): RequestFingerprint {
    const hash =
      CANONICAL_MARK +
      createHash('sha256')
        .update(`${method} ${path}\n${canonicalJson(body)}`)
        .digest('base64url');
    return { hash, method, path, body };
  }

  async begin(accountId: string, key: string, request: RequestFingerprint): Promise<IdempotencyStart> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.clock.nowMs();
      const existing = await this.repo.findOneBy({ accountId, key });
      if (!existing) return { kind: 'proceed' };
      if (existing.expiresAt <= now) {
        await this.repo.delete({ accountId, key, createdAt: existing.createdAt });
        continue;
      }
      if (!sameRequest(existing.requestHash, request)) {
        throw new GatewayError(
          422,
          'idempotency_mismatch',
          'This Idempotency-Key was used with a different request body.',
          'Idempotency-Key',
        );
      }
      if (existing.state === 'done') {
        return {
          kind: 'replay',
          status: existing.responseStatus ?? 200,
          body: existing.responseBody,
          headers: existing.responseHeaders ?? {},
        };
      }
      if (!existing.taskId) {
        // Written before the request's work by an older version: in flight until stale.
        if (now - existing.createdAt <= STALE_IN_FLIGHT_MS) throw idempotencyInProgress();
        await this.repo.delete({ accountId, key, createdAt: existing.createdAt, taskId: IsNull() });
        continue;
      }
      const task = await this.tasks.findForAccount(existing.taskId, accountId);
      if (task?.phase === 'submitting') throw idempotencyInProgress();
      if (!task || creationFailed(task)) {
        await this.repo.delete({ accountId, key, taskId: existing.taskId, state: 'in_flight' });
        continue;
      }
      return { kind: 'task', task };
    }
    throw idempotencyInProgress();
  }

  /** Stores the answer to replay. Best effort for the caller: without it, a retry is answered from the task. */
  async complete(accountId: string, key: string, response: StoredResponse): Promise<void> {
    await this.repo.update(
      { accountId, key },
      {
        state: 'done',
        responseStatus: response.status,
        responseBody: response.body as never,
        responseHeaders: response.headers,
      },
    );
  }
}

/**
 * A keyed request's fingerprint: `hash` is stored with the key; the request itself stays at hand to
 * compare with a fingerprint stored in the plain form.
 */
export interface RequestFingerprint {
  readonly hash: string;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

/** Marks the canonical form: `c1:` + Base64URL SHA-256 of method, path and the canonical JSON body. */
const CANONICAL_MARK = 'c1:';

/**
 * Same request as the stored fingerprint? A stored hash without the mark is the plain form (hex
 * SHA-256 of the body's JSON in the order it arrived), compared in that form until it expires.
 */
function sameRequest(stored: string, request: RequestFingerprint): boolean {
  if (stored.startsWith(CANONICAL_MARK)) return stored === request.hash;
  const plain = createHash('sha256')
    .update(`${request.method} ${request.path}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
  return stored === plain;
}

/** Whether the request sent an `Idempotency-Key` (its creation then ties the key to the task). */
export function hasIdempotencyKey(context: RequestContext | undefined): boolean {
  return context?.idempotency !== undefined;
}

/**
 * Ties the request's `Idempotency-Key` (if it sent one) to its task, inside the creation
 * transaction. A key another request tied first rolls this creation back (`IdempotencyKeyTakenError`).
 */
export async function bindIdempotencyKey(
  tx: EntityManager,
  context: RequestContext | undefined,
  accountId: string,
  taskId: string,
  now: number,
): Promise<void> {
  const claim = context?.idempotency;
  if (!claim) return;
  try {
    await insertRow(tx, IdempotencyRecordEntity, {
      accountId,
      key: claim.key,
      requestHash: claim.requestHash,
      state: 'in_flight',
      taskId,
      responseStatus: null,
      responseBody: null,
      responseHeaders: null,
      createdAt: now,
      expiresAt: now + KEEP_MS,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new IdempotencyKeyTakenError();
    throw error;
  }
}
