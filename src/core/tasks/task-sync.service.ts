import { Inject, Injectable, Logger } from '@nestjs/common';
import { bulkhead, BulkheadPolicy } from 'cockatiel';
import { AppConfig } from '../../platform/config/app-config';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { withTaskSpan } from '../../platform/telemetry/spans';
import { Clock } from '../../platform/time/clock';
import { payloadKind } from '../../upstream/http/lenient';
import { upstreamFailureFields } from '../../upstream/http/upstream-failure';
import {
  UpstreamChannel,
  UpstreamTaskLostError,
  UpstreamTaskNotFoundError,
  UpstreamTaskSnapshot,
  UpstreamTiming,
} from '../../upstream/upstream.types';
import { LedgerService } from '../billing/ledger.service';
import { TaskEntity } from './entities/task.entity';
import { CREATION_UNCONFIRMED, TaskLifecycle } from './task-lifecycle.service';
import { TaskFamilies } from './task-families';
import { phaseOf } from './task-status';
import { TasksRepository } from './tasks.repository';
import { UpstreamDirectory } from './upstream-directory';

/** An upstream that keeps saying "no such task" this many times has lost it. */
const MAX_NOT_FOUND = 5;

/** Sync writes in flight at once on PostgreSQL when SYNC_WRITE_CONCURRENCY is not set. */
export const DEFAULT_PG_SYNC_WRITES = 4;

/**
 * Brings one leased task in step with its upstream: polls an active task, reconciles one whose
 * creation outcome is unknown, and ends one past its deadline.
 *
 * Its two halves are bounded apart. The upstream calls run as many at a time as the sync worker
 * gives it (SYNC_CONCURRENCY, sized for the upstream's latency); on PostgreSQL what follows each
 * answer (the snapshot's update, a settlement's transaction) runs at most SYNC_WRITE_CONCURRENCY
 * at a time, queued in arrival order. Answers that come back together would otherwise start their
 * writes together, each taking a pooled connection for its transaction: a burst of them left
 * clients' requests waiting for connections and for the event loop. On SQLite the writes of one
 * turn share a group commit and hold no connection; bounding them there only made the commits
 * smaller, so they are not bounded unless the setting says so.
 */
@Injectable()
export class TaskSyncService {
  private readonly logger = new Logger('TaskSync');
  /** Absent: writes run as they come. */
  private readonly writes?: BulkheadPolicy;

  constructor(
    private readonly tasks: TasksRepository,
    private readonly lifecycle: TaskLifecycle,
    private readonly upstreams: UpstreamDirectory,
    private readonly ledger: LedgerService,
    private readonly families: TaskFamilies,
    private readonly clock: Clock,
    transactions: TransactionRunner,
    @Inject(AppConfig) config: AppConfig,
  ) {
    const limit = config.SYNC_WRITE_CONCURRENCY ?? (transactions.isPostgres ? DEFAULT_PG_SYNC_WRITES : undefined);
    // An unbounded queue: a sync waiting for its turn to write is never refused.
    if (limit !== undefined) this.writes = bulkhead(limit, Infinity);
  }

  /** One sync of one task, as a span of the task's trace (a child of the request that created it). */
  sync(task: TaskEntity, timing?: UpstreamTiming): Promise<TaskEntity> {
    return withTaskSpan(
      'task.sync',
      task.traceContext,
      { 'gateway.task_id': task.id, 'gateway.family': task.family, 'gateway.channel': task.channelId },
      () => this.syncOnce(task, timing),
    );
  }

  private async syncOnce(task: TaskEntity, timing?: UpstreamTiming): Promise<TaskEntity> {
    const pastDeadline = this.clock.nowMs() >= task.deadlineAt;
    try {
      if (task.phase === 'submitting' || !task.upstreamTaskId) {
        if (pastDeadline) return await this.failLate(task);
        return await this.reconcile(task, timing);
      }
      const channel = this.upstreams.channel(task.channelId);
      if (!channel)
        return await this.write(() =>
          this.lifecycle.failByGateway(
            task,
            'channel_removed',
            `The upstream channel '${task.channelId}' is no longer configured.`,
          ),
        );
      // Fetch first, even past the deadline: a task that ended just before it is settled as it ended.
      const snapshot = await this.fetch(channel, task, task.upstreamTaskId, timing);
      if (pastDeadline && phaseOf(snapshot.state) === 'active') return await this.failLate(task);
      return await this.write(() => this.lifecycle.applySnapshot(task, snapshot));
    } catch (error) {
      // Past the deadline there is no later: an unreadable upstream ends the task.
      if (pastDeadline) return this.failLate(task);
      return this.retryLater(task, error);
    }
  }

  /**
   * The task's upstream state, the query's outcome told to the directory: a channel whose credentials
   * the upstream refuses is shown unhealthy (the task only waits: that is no answer about the task).
   */
  private async fetch(
    channel: UpstreamChannel,
    task: TaskEntity,
    upstreamTaskId: string,
    timing: UpstreamTiming | undefined,
  ): Promise<UpstreamTaskSnapshot> {
    const operation = this.families.upstreamOperation(task.family, task.action);
    try {
      const snapshot = await this.upstreams.client(task.family).fetch(channel, operation, upstreamTaskId, { timing });
      this.upstreams.queryEnded(channel);
      this.warnIfNotUnderstood(task, snapshot);
      return snapshot;
    } catch (error) {
      this.upstreams.queryEnded(channel, error);
      throw error;
    }
  }

  /** One sync's database work, in its turn (see the class). Never call it from inside another. */
  private write<T>(work: () => Promise<T>): Promise<T> {
    return this.writes ? this.writes.execute(work) : work();
  }

  private failLate(task: TaskEntity): Promise<TaskEntity> {
    return this.write(() =>
      this.lifecycle.failByGateway(task, 'deadline_exceeded', 'The task did not finish before its deadline.'),
    );
  }

  /**
   * A task whose creation never confirmed: the process died mid-call or the call timed out.
   * Where the upstream can look it up by our reference, adopt it (never charging: the caller was
   * told it failed); otherwise end it with its hold released.
   */
  private async reconcile(task: TaskEntity, timing?: UpstreamTiming): Promise<TaskEntity> {
    const channel = this.upstreams.channel(task.channelId);
    if (channel && this.families.canLookUpByReference(task.family)) {
      try {
        const snapshot = await this.fetch(channel, task, task.id, timing);
        return await this.write(async () => {
          await this.ledger.release(
            task.accountId,
            task.id,
            task.estimatedCharge,
            'creation not confirmed to the caller; adopted without charge',
          );
          return this.lifecycle.applySnapshot(task, snapshot, { upstreamTaskId: snapshot.upstreamTaskId ?? null });
        });
      } catch (error) {
        if (!(error instanceof UpstreamTaskNotFoundError)) throw error;
      }
    }
    return this.write(() =>
      this.lifecycle.failByGateway(
        task,
        CREATION_UNCONFIRMED,
        'The upstream never confirmed this task; nothing was charged.',
      ),
    );
  }

  /**
   * An answer without a status the gateway knows (not JSON, not a task, a status word it has no
   * meaning for) leaves the task as it was, polled again; one line says so, never the answer itself.
   */
  private warnIfNotUnderstood(task: TaskEntity, snapshot: UpstreamTaskSnapshot): void {
    if (snapshot.state !== 'unknown') return;
    this.logger.warn(
      {
        family: task.family,
        channel: task.channelId,
        taskId: task.id,
        nativeStatus: snapshot.nativeStatus.slice(0, 100),
        answer: payloadKind(snapshot.raw),
      },
      'upstream task answer not understood; will poll again',
    );
  }

  private retryLater(task: TaskEntity, error: unknown): Promise<TaskEntity> {
    return this.write(() => this.recordFailedSync(task, error));
  }

  /** The failed call's fields for the log; the channel is the task's (gone from the configuration: named only). */
  private failureFields(task: TaskEntity, error: unknown): Record<string, unknown> {
    const channel = this.upstreams.channel(task.channelId);
    if (channel) return { ...upstreamFailureFields(error, channel) };
    return {
      family: task.family,
      channel: task.channelId,
      message: error instanceof Error ? error.message : String(error),
    };
  }

  private async recordFailedSync(task: TaskEntity, error: unknown): Promise<TaskEntity> {
    const attempts = task.syncAttempts + 1;
    // The upstream saying it lost the task (ax UNKNOWN) ends it once a re-poll confirms: the first answer is kept
    // as the native status.
    const lost = error instanceof UpstreamTaskLostError ? error : null;
    if (lost && task.nativeStatus === lost.nativeStatus)
      return this.lifecycle.failByGateway(task, 'upstream_task_expired', lost.reason);
    if (!lost && error instanceof UpstreamTaskNotFoundError && attempts >= MAX_NOT_FOUND) {
      return this.lifecycle.failByGateway(task, 'upstream_task_lost', 'The upstream no longer knows this task.');
    }
    this.logger.warn({ ...this.failureFields(task, error), taskId: task.id }, 'upstream task query failed; will retry');
    const changes = {
      ...(lost ? { nativeStatus: lost.nativeStatus } : {}),
      syncAttempts: attempts,
      syncDueAt: this.clock.nowMs() + this.lifecycle.pollDelay(attempts),
      leaseOwner: null,
      leaseUntil: null,
    };
    // Conditional: a task someone ended while this sync ran must not become due (or change) again.
    if (!(await this.tasks.updateIfOpen(task.id, changes))) return (await this.tasks.findById(task.id)) ?? task;
    return Object.assign(task, changes);
  }
}
