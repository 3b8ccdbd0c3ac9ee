import type { EntityManager } from 'typeorm';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { TransactionRunner, isUniqueViolation } from '../../platform/database/transaction-runner';
import { GatewayError } from '../../platform/errors';
import { addUpstreamTime, RequestContext } from '../../platform/http/request-context';
import { newId, randomSecret } from '../../platform/ids/ids';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { Clock } from '../../platform/time/clock';
import {
  UpstreamOutcomeUnknownError,
  UpstreamRejectedError,
  UpstreamSubmitResult,
  UpstreamTiming,
  UpstreamUnavailableError,
} from '../../upstream/upstream.types';
import { Principal } from '../accounts/principal';
import { AccountsRepository } from '../accounts/repositories/accounts.repository';
import { LedgerService } from '../billing/ledger.service';
import { PricingService } from '../billing/pricing.service';
import { assertCallbackUrlAllowed } from './callbacks/callback-destination';
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

  /** `context`: the HTTP request's (its `Idempotency-Key` claim is tied to the task, its Server-Timing gets the upstream time). */
  async create(principal: Principal, draft: TaskDraft, context?: RequestContext): Promise<TaskEntity> {
    const accountId = principal.account.id;
    if (draft.callbackUrl) assertCallbackUrlAllowed(draft.callbackUrl, this.config.CALLBACK_ALLOW_PRIVATE);
    if (draft.externalTaskId && (await this.tasks.externalIdTaken(accountId, draft.externalTaskId))) {
      throw duplicateExternalId();
    }
    const channel = draft.channelId ? this.upstreams.channel(draft.channelId) : this.upstreams.pick(draft.family);
    if (draft.channelId && channel?.family !== draft.family)
      throw GatewayError.unavailable('The upstream channel this task needs is no longer configured.');
    if (!channel) throw GatewayError.unavailable(`No upstream channel is configured for this model family.`);
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
    try {
      if (hasIdempotencyKey(context)) await this.transactions.run(open);
      else await this.transactions.runAtomic(open);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateExternalId();
      throw error;
    }

    const operation = this.families.upstreamOperation(draft.family, draft.action);
    const timing: UpstreamTiming = { upstreamMs: 0 };
    let accepted: UpstreamSubmitResult;
    try {
      accepted = await this.upstreams.client(draft.family).submit(channel, operation, draft.upstreamBody, {
        callbackUrl: this.upstreamCallbackUrl(task),
        clientReference: task.id,
        timing,
      });
    } catch (error) {
      throw await this.failedSubmission(task, error, context);
    } finally {
      addUpstreamTime(context, timing.upstreamMs);
    }
    this.metrics.tasksCreated.inc({ family: draft.family, model: draft.model.name });
    this.metrics.upstreamCalls.inc({ family: draft.family, operation, outcome: 'accepted' });
    return this.recordAcceptance(task, accepted, context);
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
      throw GatewayError.internal();
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
      return GatewayError.invalid(`The upstream rejected the request: ${error.message}`, null, {
        native: { code: error.nativeCode, message: error.message },
      });
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
      // Set in the creation transaction: if this process dies mid-call, the worker finds the record once the call must have ended.
      syncDueAt: null,
      syncAttempts: 0,
      leaseOwner: null,
      leaseUntil: null,
      deadlineAt: now + this.config.TASK_DEADLINE_MS,
    } satisfies Partial<TaskEntity>);
    return task;
  }

  private upstreamCallbackUrl(task: TaskEntity): string | undefined {
    if (!this.config.PUBLIC_BASE_URL || !task.callbackToken) return undefined;
    return `${this.config.PUBLIC_BASE_URL.replace(/\/$/, '')}/callbacks/upstream/${task.callbackToken}`;
  }
}

function duplicateExternalId(): GatewayError {
  return GatewayError.invalid(
    'external_task_id must be unique for the account; this one is already used.',
    'external_task_id',
  );
}
