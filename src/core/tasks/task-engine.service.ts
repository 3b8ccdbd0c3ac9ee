import type { EntityManager } from 'typeorm';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { TransactionRunner, isUniqueViolation } from '../../platform/database/transaction-runner';
import { isDatabaseUnavailable } from '../../platform/database/database-unavailable';
import { GatewayError } from '../../platform/errors';
import { upstreamRejection } from './upstream-rejection';
import { upstreamFailureFields } from '../../upstream/http/upstream-failure';
import { addUpstreamTime, RequestContext } from '../../platform/http/request-context';
import { newId, randomSecret } from '../../platform/ids/ids';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { noteRequestSubject } from '../../platform/telemetry/request-labels';
import { currentTraceparent } from '../../platform/telemetry/spans';
import { Clock } from '../../platform/time/clock';
import {
  UpstreamChannel,
  UpstreamOutcomeUnknownError,
  UpstreamRejectedError,
  UpstreamSubmitResult,
  UpstreamTiming,
  UpstreamUnavailableError,
} from '../../upstream/upstream.types';
import { keyAllowsModel } from '../accounts/guards/model-access.guard';
import { Principal } from '../accounts/principal';
import { AccountsRepository } from '../accounts/repositories/accounts.repository';
import { insufficientQuota } from '../billing/insufficient-quota';
import { LedgerService } from '../billing/ledger.service';
import { PricingService } from '../billing/pricing.service';
import { assertCallbackUrlAllowed } from './client-callbacks-out/callback-destination';
import { bindIdempotencyKey, hasIdempotencyKey } from './idempotency.service';
import { TaskEntity } from './entities/task.entity';
import { TaskDraft } from './task-draft';
import { TaskLifecycle } from './task-lifecycle.service';
import { TaskFamilies } from './task-families';
import { outerStatusOf } from './task-status';
import { TasksRepository } from './tasks.repository';
import { UpstreamDirectory } from './upstream-directory';

/**
 * The one creation path of every family:
 * slot -> hold + record (one transaction) -> upstream call -> record the upstream's answer.
 * A failure at any step gives back what was taken; an unknown outcome keeps the record and its
 * hold for the sync worker to reconcile, so a task the upstream accepted is never lost.
 */
@Injectable()
export class TaskEngine {
  private readonly logger = new Logger('TaskEngine');

  constructor(
    private readonly tasks: TasksRepository,
    private readonly accounts: AccountsRepository,
    private readonly ledger: LedgerService,
    private readonly pricing: PricingService,
    private readonly lifecycle: TaskLifecycle,
    private readonly upstreams: UpstreamDirectory,
    private readonly transactions: TransactionRunner,
    private readonly metrics: MetricsService,
    private readonly families: TaskFamilies,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  /**
   * `context`: the HTTP request's (its `Idempotency-Key` claim is tied to the task, its Server-Timing gets the upstream
   * time).
   */
  async create(principal: Principal, draft: TaskDraft, context?: RequestContext): Promise<TaskEntity> {
    const accountId = principal.account.id;
    noteRequestSubject(context, draft.family, draft.model.name);
    if (draft.callbackUrl) assertCallbackUrlAllowed(draft.callbackUrl, this.config.CALLBACK_ALLOW_PRIVATE);
    if (draft.externalTaskId) {
      const holder = await this.tasks.externalIdHolder(accountId, draft.externalTaskId);
      // Unique per account; the holder is named only to a key that may read it.
      if (holder)
        throw duplicateExternalId(keyAllowsModel(principal.apiKey.models, holder.model) ? holder.id : undefined);
    }
    const channel = draft.channelId
      ? this.upstreams.channel(draft.channelId)
      : this.upstreams.pick(draft.family, draft.model.name);
    if (draft.channelId && channel?.family !== draft.family)
      throw GatewayError.unavailable('The upstream channel this task needs is no longer configured.');
    if (!channel) throw GatewayError.unavailable('No upstream channel can take a task of this model now.');
    const estimate = this.pricing.estimate(draft.model.name, draft.billing);

    const cap = principal.account.maxConcurrentTasks ?? this.config.DEFAULT_MAX_CONCURRENT_TASKS;
    const now = this.clock.nowMs();
    const task = this.newRecord(principal, draft, channel.id, estimate.amount, estimate.priceVersion, now);
    // Slot, hold and record commit together, or not at all (the cap is checked before the balance).
    // Without an Idempotency-Key that is one statement on PostgreSQL (one database round trip; the
    // acceptance is the second); with one, the key is tied to the task in the same transaction.
    const hold = this.ledger.holdEntry(accountId, task.id, estimate.amount, estimate.priceVersion);
    const open = async (tx: EntityManager | undefined): Promise<void> => {
      // Due only once the upstream call must have ended, counted from the commit (not from before a
      // transaction that may have waited): the worker never reconciles a call still running.
      task.syncDueAt = this.clock.nowMs() + this.config.UPSTREAM_TIMEOUT_MS + 5000;
      const outcome = await this.tasks.open(task, hold, cap, tx);
      if (outcome === 'at-capacity')
        throw GatewayError.rateLimited(`The account already has ${cap} tasks in flight; wait for one to finish.`, 5);
      if (outcome === 'insufficient-balance') throw GatewayError.insufficientQuota();
      // The Idempotency-Key names its task from the moment the task exists (a retry after a crash is answered from it).
      if (tx) await bindIdempotencyKey(tx, context, accountId, task.id, this.clock.nowMs());
    };
    // Counted from the pick on (no await between them): concurrent creates see each other under maxInFlight.
    this.upstreams.taskOpened(channel.id);
    try {
      if (hasIdempotencyKey(context)) await this.transactions.run(open);
      else await this.transactions.runAtomic(open);
    } catch (error) {
      this.upstreams.taskClosed(channel.id);
      if (isUniqueViolation(error)) throw duplicateExternalId();
      if (error instanceof GatewayError && error.code === 'insufficient_quota')
        throw insufficientQuota(await this.accounts.findById(accountId).catch(() => null), estimate.amount);
      throw error;
    }

    const operation = this.families.upstreamOperation(draft.family, draft.action);
    const timing: UpstreamTiming = { upstreamMs: 0 };
    let accepted: UpstreamSubmitResult;
    try {
      accepted = await this.submitWithFailover(task, draft, channel, operation, timing, context);
    } catch (error) {
      if (!(error instanceof UpstreamOutcomeUnknownError)) this.upstreams.taskClosed(task.channelId);
      throw await this.failedSubmission(task, error, context);
    } finally {
      addUpstreamTime(context, timing.upstreamMs);
    }
    this.metrics.tasksCreated.inc({ family: draft.family, model: draft.model.name });
    this.metrics.upstreamCalls.inc({ family: draft.family, operation, outcome: 'accepted' });
    return this.recordAcceptance(task, accepted, context);
  }

  /**
   * Sends the create; while a channel surely refused it (never after an unknown outcome: the task
   * would run twice), to the next channel the directory offers, at most UPSTREAM_FAILOVER_MAX
   * channels, none started once UPSTREAM_TIMEOUT_MS has passed since the first. A task bound to a
   * channel (a session's) never leaves it. Before each further call the record names the new
   * channel and is due for reconciliation only once that call must have ended.
   */
  private async submitWithFailover(
    task: TaskEntity,
    draft: TaskDraft,
    first: UpstreamChannel,
    operation: string,
    timing: UpstreamTiming,
    context: RequestContext | undefined,
  ): Promise<UpstreamSubmitResult> {
    const client = this.upstreams.client(draft.family);
    const startedAt = this.clock.nowMs();
    const tried = [first.id];
    for (let channel = first; ;) {
      const wireMsBefore = timing.upstreamMs;
      try {
        const accepted = await client.submit(channel, operation, draft.upstreamBody, {
          callbackUrl: this.upstreamCallbackUrl(task),
          clientReference: task.id,
          timing,
        });
        this.upstreams.createEnded(channel, timing.upstreamMs - wireMsBefore);
        return accepted;
      } catch (error) {
        const outcome = this.upstreams.createEnded(channel, timing.upstreamMs - wireMsBefore, error);
        const next =
          (outcome === 'refused' || outcome === 'out-of-balance' || outcome === 'credentials-refused') &&
          !draft.channelId &&
          tried.length < this.config.UPSTREAM_FAILOVER_MAX &&
          this.clock.nowMs() - startedAt < this.config.UPSTREAM_TIMEOUT_MS
            ? this.upstreams.pick(draft.family, draft.model.name, tried)
            : null;
        const failover = next && !tried.includes(next.id) ? next : null;
        // One line per failed call: what the upstream said, and where the task goes next, if anywhere.
        this.logger.warn(
          {
            ...upstreamFailureFields(error, channel),
            taskId: task.id,
            req: { id: context?.requestId },
            ...(failover ? { to: failover.id, reason: outcome } : {}),
          },
          failover ? 'upstream create failed; trying the next channel' : 'upstream create failed',
        );
        if (!failover) throw error;
        // A record no longer open (never expected: it is not due yet) is not sent anywhere else.
        if (!(await this.moveToChannel(task, failover))) throw error;
        tried.push(failover.id);
        channel = failover;
      }
    }
  }

  private async moveToChannel(task: TaskEntity, next: UpstreamChannel): Promise<boolean> {
    const now = this.clock.nowMs();
    const changes = { channelId: next.id, syncDueAt: now + this.config.UPSTREAM_TIMEOUT_MS + 5000, updatedAt: now };
    if (!(await this.tasks.updateIfOpen(task.id, changes))) return false;
    this.upstreams.taskClosed(task.channelId);
    Object.assign(task, changes);
    this.upstreams.taskOpened(next.id);
    return true;
  }

  /**
   * The upstream has the task now: record it. If even that fails, the upstream ID is written on its
   * own as a last resort and the record is left for the sync worker; the hold stays, never released.
   */
  private async recordAcceptance(
    task: TaskEntity,
    accepted: UpstreamSubmitResult,
    context: RequestContext | undefined,
  ): Promise<TaskEntity> {
    // A creation answer without a readable status still means "accepted".
    const state = accepted.snapshot.state === 'unknown' ? 'queued' : accepted.snapshot.state;
    try {
      return await this.lifecycle.applySnapshot(
        task,
        { ...accepted.snapshot, state },
        { upstreamTaskId: accepted.upstreamTaskId },
      );
    } catch (error) {
      this.logger.error(
        { err: error, taskId: task.id, req: { id: context?.requestId } },
        'upstream accepted the task but recording it failed; left for the sync worker',
      );
      // Conditional: a task someone ended meanwhile (e.g. the sync worker) is never reopened.
      await this.tasks
        .updateIfOpen(task.id, {
          upstreamTaskId: accepted.upstreamTaskId,
          phase: 'active',
          syncDueAt: this.clock.nowMs(),
        })
        .catch(() => undefined);
      // The database gone (not a fault of this task): the client retries after Retry-After and, with
      // its Idempotency-Key, gets this task once the sync worker has reconciled it.
      throw isDatabaseUnavailable(error) ? error : GatewayError.internal();
    }
  }

  /** Maps a failed upstream call to the client's error, releasing or keeping the hold as the outcome demands. */
  private async failedSubmission(
    task: TaskEntity,
    error: unknown,
    context: RequestContext | undefined,
  ): Promise<unknown> {
    if (error instanceof GatewayError) return error;
    if (error instanceof UpstreamRejectedError) {
      this.metrics.upstreamCalls.inc({ family: task.family, operation: task.action, outcome: 'rejected' });
      await this.lifecycle.reject(task, String(error.nativeCode), error.message);
      return upstreamRejection(error);
    }
    if (error instanceof UpstreamOutcomeUnknownError) {
      // The request went out and no answer came: the upstream may have the task. Keep the
      // record and its hold; the sync worker reconciles it at once.
      this.metrics.upstreamCalls.inc({ family: task.family, operation: task.action, outcome: 'unknown' });
      // Conditional: an ended task must not become due again.
      await this.tasks.updateIfOpen(task.id, { syncDueAt: this.clock.nowMs(), updatedAt: this.clock.nowMs() });
      return GatewayError.unavailable(
        'The upstream did not answer in time. The task was not confirmed and will not be charged.',
      );
    }
    this.metrics.upstreamCalls.inc({ family: task.family, operation: task.action, outcome: 'unavailable' });
    await this.lifecycle.reject(
      task,
      'upstream_unavailable',
      error instanceof Error ? error.message : 'upstream unavailable',
    );
    if (!(error instanceof UpstreamUnavailableError))
      this.logger.error(
        { err: error, taskId: task.id, req: { id: context?.requestId } },
        'unexpected failure while creating a task',
      );
    return GatewayError.unavailable();
  }

  private newRecord(
    principal: Principal,
    draft: TaskDraft,
    channelId: string,
    estimate: number,
    priceVersion: number,
    now: number,
  ): TaskEntity {
    const task = new TaskEntity();
    Object.assign(task, {
      id: newId('task'),
      accountId: principal.account.id,
      apiKeyId: principal.apiKey.id,
      family: draft.family,
      action: draft.action,
      model: draft.model.name,
      channelId,
      upstreamTaskId: null,
      phase: 'submitting',
      nativeStatus: this.families.statusWords(draft.family).submitted,
      outerStatus: outerStatusOf('submitting', null),
      progress: 0,
      failureCode: null,
      failureReason: null,
      requestSnapshot: draft.snapshot,
      creationEcho: draft.creationEcho ?? null,
      result: null,
      lastNative: null,
      nativeUsage: null,
      externalTaskId: draft.externalTaskId ?? null,
      callbackUrl: draft.callbackUrl ?? null,
      callbackToken: this.config.PUBLIC_BASE_URL ? randomSecret(24) : null,
      billableUsage: draft.billing,
      billingState: 'held',
      estimatedCharge: estimate,
      finalCharge: null,
      priceVersion,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
      // Set in the creation transaction: if this process dies mid-call, the worker finds the record once the call must
      // have ended.
      syncDueAt: null,
      syncAttempts: 0,
      leaseOwner: null,
      leaseUntil: null,
      deadlineAt: now + this.config.TASK_DEADLINE_MS,
      // The creating request's span: the task's later spans, on any instance, join its trace.
      traceContext: currentTraceparent(),
    } satisfies Partial<TaskEntity>);
    return task;
  }

  private upstreamCallbackUrl(task: TaskEntity): string | undefined {
    if (!this.config.PUBLIC_BASE_URL || !task.callbackToken) return undefined;
    return `${this.config.PUBLIC_BASE_URL.replace(/\/$/, '')}/callbacks/upstream/${task.callbackToken}`;
  }
}

/**
 * Only a task the caller can see holds its external_task_id (a failed creation gives it back), so
 * the message names that task; `holder` is unknown when a concurrent create took the ID first.
 */
/** `holder`: the task holding the ID, when the caller may see it; otherwise no task is named. */
function duplicateExternalId(holder?: string): GatewayError {
  return GatewayError.invalid(
    `external_task_id must be unique for the account; this one is already used` +
      (holder ? ` by task ${holder}.` : ' by another task of the account.'),
    'external_task_id',
  );
}
