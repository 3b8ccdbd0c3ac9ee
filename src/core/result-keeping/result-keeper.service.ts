import { Inject, Injectable, Logger } from '@nestjs/common';
import { Transform, pipeline } from 'stream';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../../platform/config/app-config';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { Clock } from '../../platform/time/clock';
import type { TaskEntity } from '../tasks/entities/task.entity';
import { ObjectStore } from './object-store';
import { ResultDownloads, readWhole } from './result-download';
import { ResultFileEntity } from './result-file.entity';
import { ResultFilesRepository } from './result-files.repository';
import { NotKeptReason, ResultMetrics } from './result-metrics';
import { pendingFile } from './pending-file';
import { resultSlots, resultStorageKey } from './result-slots';
import { StoredTotals } from './stored-totals';

const DAY_MS = 86_400_000;
/** `/readyz` recounts the store at most this often. */
const READINESS_CACHE_MS = 5000;
/** What a result file may be: a video, its cover image, or audio. */
const MEDIA_TYPE = /^(video|image|audio)\//i;
/**
 * A file whose declared size is at most this is read whole and written in one call: streaming a
 * small file (web stream to Node stream, the size cap, a write stream, a stat) cost more than its
 * download (docs/benchmarks.md, "Kept results"). At most RESULT_DOWNLOAD_CONCURRENCY of them are
 * in memory at once.
 */
export const SMALL_RESULT_BYTES = 1024 * 1024;
/** The upstream says its copy is gone for good (expired link): no retry can bring it back. */
const GONE_STATUSES = new Set([401, 403, 404, 410]);

/** What one attempt for a file came to, before it is recorded: `kept` when its copy is in the store. */
export interface KeepOutcome {
  readonly file: ResultFileEntity;
  readonly changes: Partial<ResultFileEntity>;
  readonly kept?: { readonly key: string; readonly size: number };
  readonly error?: unknown;
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

/** A download that cannot succeed: the file is left at the upstream and not tried again. */
class NotKept extends Error {
  constructor(
    readonly reason: NotKeptReason,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Makes the gateway the durable home of finished tasks' files: queues one download per file with
 * the task's terminal switch, and performs one download (streamed from the upstream into the
 * store, checked for type and size on the way).
 */
@Injectable()
export class ResultKeeper {
  private readonly logger = new Logger('ResultKeeper');
  /** Bytes of downloads in flight on this instance, counted against the store's capacity. */
  private reserved = 0;

  constructor(
    private readonly files: ResultFilesRepository,
    private readonly store: ObjectStore,
    private readonly metrics: ResultMetrics,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly downloads: ResultDownloads,
    private readonly transactions: TransactionRunner,
    private readonly storedTotals: StoredTotals,
  ) {}

  get enabled(): boolean {
    return this.config.RESULT_STORE !== 'off';
  }

  /** Inside the task's terminal transaction (the winner only): one queued download per file it shows. */
  async enqueue(task: TaskEntity, tx: EntityManager): Promise<void> {
    if (!this.enabled) return;
    const now = this.clock.nowMs();
    await this.files.add(
      tx,
      resultSlots(task).map(({ slot, url }) => pendingFile(task, slot, url, now)),
    );
  }

  /**
   * Removes every file of a task (its owner deleted it): queued downloads are dropped, kept copies
   * deleted from the store. The rows go first: once they say removed, nothing serves the copies,
   * and a download still running deletes its own copy when it finds its row removed.
   */
  async discard(taskId: string): Promise<void> {
    for (const file of await this.files.discardForTask(taskId, this.clock.nowMs())) {
      if (!file.storageKey) continue;
      // Its row already says removed, so nothing serves it: a copy the store keeps by mistake is left, logged.
      await this.store.delete(file.storageKey).catch((error: unknown) => {
        this.logger.error(
          { err: error, taskId, key: file.storageKey },
          'a deleted task’s kept file could not be deleted',
        );
      });
    }
  }

  /** One attempt for a leased file (its `attempts` already counts this one), its outcome recorded under the lease. */
  async keep(file: ResultFileEntity, owner: string): Promise<void> {
    await this.record([await this.attempt(file)], owner);
  }

  /**
   * One attempt for a leased file: the download into the store, and what the file's row becomes
   * (stored, retried later, or not kept), not yet recorded (see `record`).
   */
  async attempt(file: ResultFileEntity): Promise<KeepOutcome> {
    const key = resultStorageKey(file.taskId, file.slot);
    try {
      const { size, contentType } = await this.download(file, key);
      const now = this.clock.nowMs();
      const changes: Partial<ResultFileEntity> = {
        status: 'stored',
        storageKey: key,
        sizeBytes: size,
        contentType,
        nextAttemptAt: null,
        lastError: null,
        storedAt: now,
        expiresAt: file.createdAt + this.config.RESULT_RETENTION_DAYS * DAY_MS,
        updatedAt: now,
      };
      return { file, changes, kept: { key, size } };
    } catch (error) {
      return { file, changes: this.afterFailure(file, error), error };
    }
  }

  /**
   * Records attempts' outcomes in one transaction (one commit for a cycle's files), each only while
   * `owner` still holds its file's lease (a taken-over lease wins); then counts and logs them.
   */
  async record(outcomes: readonly KeepOutcome[], owner: string): Promise<void> {
    if (outcomes.length === 0) return;
    const recorded = await this.transactions.run(async (tx) => {
      const done: boolean[] = [];
      for (const { file, changes } of outcomes) done.push(await this.files.settle(file.id, owner, changes, tx));
      return done;
    });
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.kept && recorded[i]) {
        this.storedTotals.added(outcome.kept.size);
        this.metrics.keptFiles.inc();
        this.metrics.keptBytes.inc(outcome.kept.size);
      } else if (outcome.kept) {
        // Its task was deleted while the copy was being made: the copy goes too.
        if ((await this.files.findById(outcome.file.id))?.status === 'removed')
          await this.store.delete(outcome.kept.key);
      } else this.countFailure(outcome);
    }
  }

  /** The row's changes after a failed attempt: not kept for good, retried with back-off, or given up. */
  private afterFailure(file: ResultFileEntity, error: unknown): Partial<ResultFileEntity> {
    const message = errorText(error);
    const now = this.clock.nowMs();
    if (error instanceof NotKept)
      return {
        status: error.reason === 'upstream_gone' ? 'failed' : 'skipped',
        nextAttemptAt: null,
        lastError: message,
        updatedAt: now,
      };
    const giveUp = file.attempts >= this.config.RESULT_DOWNLOAD_MAX_ATTEMPTS;
    const delay = this.config.RESULT_RETRY_BASE_MS * Math.pow(2, file.attempts - 1) * (0.5 + Math.random());
    return {
      status: giveUp ? 'failed' : 'pending',
      nextAttemptAt: giveUp ? null : now + Math.round(delay),
      lastError: message,
      updatedAt: now,
    };
  }

  private countFailure({ file, error, changes }: KeepOutcome): void {
    const log = { taskId: file.taskId, slot: file.slot, attempt: file.attempts, reason: errorText(error) };
    if (error instanceof NotKept) {
      this.metrics.notKept.inc({ reason: error.reason });
      this.logger.warn(log, 'result file not kept; it stays at the upstream');
      return;
    }
    this.metrics.downloadFailures.inc();
    const giveUp = changes.status === 'failed';
    if (giveUp) this.metrics.notKept.inc({ reason: 'attempts_exhausted' });
    this.logger.warn(
      log,
      giveUp ? 'result download failed; abandoned after the last attempt' : 'result download failed; will retry',
    );
  }

  /** Copies the upstream's file into the store: streamed, or read whole when it declares a small size. */
  private async download(file: ResultFileEntity, key: string): Promise<{ size: number; contentType: string }> {
    const res = await this.downloads.open(file.upstreamUrl, this.config.RESULT_DOWNLOAD_TIMEOUT_MS);
    // A refused answer's body is never read: `close` drops its connection.
    try {
      if (GONE_STATUSES.has(res.status)) throw new NotKept('upstream_gone', `upstream answered HTTP ${res.status}`);
      if (res.status < 200 || res.status > 299) throw new Error(`upstream answered HTTP ${res.status}`);
      const contentType = (res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (!MEDIA_TYPE.test(contentType))
        throw new NotKept('content_type', `not a video, image or audio file (${contentType || 'no Content-Type'})`);
      const declared = Number(res.headers['content-length'] ?? NaN);
      const max = this.config.RESULT_MAX_BYTES;
      if (declared > max) throw new NotKept('too_large', `${declared} bytes is above RESULT_MAX_BYTES (${max})`);
      const expected = Number.isFinite(declared) ? declared : 0;
      await this.reserve(expected);
      try {
        if (Number.isFinite(declared) && declared <= SMALL_RESULT_BYTES) {
          // No more than the declared size arrives (the HTTP client holds the body to its Content-Length).
          const bytes = await readWhole(res.body);
          return { size: await this.store.putBytes(key, bytes, contentType), contentType };
        }
        // The store's write sees the cap's error (and the source's) as its own and fails with it.
        const limited = pipeline(res.body, capped(max), () => undefined);
        const size = await this.store.put(key, limited, contentType);
        return { size, contentType };
      } finally {
        this.reserved -= expected;
      }
    } finally {
      res.close();
    }
  }

  /** Refuses a download the store has no room for (nothing is evicted early to make room). */
  private async reserve(bytes: number): Promise<void> {
    const max = this.config.RESULT_STORE_MAX_BYTES;
    if (max <= 0) return;
    const used = (await this.storedTotals.read()).bytes + this.reserved;
    if (used + Math.max(bytes, 1) > max) {
      this.storeFullSince ??= this.clock.nowMs();
      throw new NotKept('store_full', `the result store is full (${used} of ${max} bytes)`);
    }
    this.storeFullSince = null;
    this.reserved += bytes;
  }

  /** When this instance found the store full (null: it had room at its last download). */
  storeFullSince: number | null = null;
  private summary?: { at: number; value: Promise<Record<string, unknown>> };

  /** The store's state for `/readyz`: counted at most every few seconds, so readiness probes stay cheap. */
  readiness(): Promise<Record<string, unknown>> {
    const now = this.clock.nowMs();
    if (!this.summary || now - this.summary.at > READINESS_CACHE_MS) {
      const value = this.summarise();
      this.summary = { at: now, value };
      value.catch(() => (this.summary = undefined));
    }
    return this.summary.value;
  }

  private async summarise(): Promise<Record<string, unknown>> {
    const max = this.config.RESULT_STORE_MAX_BYTES;
    if (!this.enabled) return { store: 'off' };
    const [pending, stored] = await Promise.all([this.files.pendingCount(), this.storedTotals.read()]);
    return {
      store: this.store.kind,
      pending_files: pending,
      stored_files: stored.files,
      stored_bytes: stored.bytes,
      max_bytes: max > 0 ? max : null,
      // New results are not kept while full (nothing is evicted early to make room).
      full: max > 0 && (stored.bytes >= max || this.storeFullSince !== null),
      full_since: this.storeFullSince === null ? null : new Date(this.storeFullSince).toISOString(),
    };
  }
}

/** Passes bytes through until `max`, then fails the stream (and with it the upload). */
function capped(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) done(new NotKept('too_large', `the file is above RESULT_MAX_BYTES (${max})`));
      else done(null, chunk);
    },
  });
}
