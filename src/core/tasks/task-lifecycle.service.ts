import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '../../platform/config/app-config';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { withSpan } from '../../platform/telemetry/spans';
import { Clock } from '../../platform/time/clock';
import { UpstreamTaskSnapshot } from '../../upstream/upstream.types';
import { AccountsRepository } from '../accounts/repositories/accounts.repository';
import { LedgerService, SettlementCharge } from '../billing/ledger.service';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { PricingService } from '../billing/pricing.service';
import { ResultKeeper } from '../result-keeping/result-keeper.service';
import { CallbackOutbox } from './client-callbacks-out/callback-outbox.service';
import { TaskEntity, TaskPhase } from './entities/task.entity';
import { TaskFamilies } from './task-families';
import { isTerminal, outerStatusOf, phaseOf, progressOf } from './task-status';
import { TasksRepository } from './tasks.repository';
import { TaskDurations, durationKind } from './task-durations';

/**
 * Moves a task record forward: from upstream snapshots, or by the gateway's own decision
 * (deadline, reconciliation). Whoever wins the conditional switch to a terminal phase settles
 * or releases the hold, frees the concurrency slot and queues the client callback, once.
 */
@Injectable()
export class TaskLifecycle {
  private readonly logger = new Logger('TaskLifecycle');
  /** Recent run times by kind of task, for timing polls (`nextPollDelay`). */
  private readonly durations = new TaskDurations();

  constructor(
    private readonly tasks: TasksRepository,
    private readonly accounts: AccountsRepository,
    private readonly ledger: LedgerService,
    private readonly pricing: PricingService,
    private readonly callbacks: CallbackOutbox,
    private readonly metrics: MetricsService,
    private readonly transactions: TransactionRunner,
    private readonly families: TaskFamilies,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
    /** Absent where results are not kept (unit fakes). */
    @Optional() private readonly results?: ResultKeeper,
  ) {}

  /** Records what the upstream said; ends the task when the upstream says it ended. */
  async applySnapshot(
    task: TaskEntity,
    snapshot: UpstreamTaskSnapshot,
    extra: Partial<TaskEntity> = {},
  ): Promise<TaskEntity> {
    const now = this.clock.nowMs();
    const phase = phaseOf(snapshot.state);
    const changes: Partial<TaskEntity> = {
      ...extra,
      phase,
      nativeStatus: snapshot.nativeStatus || task.nativeStatus,
      outerStatus: outerStatusOf(phase, snapshot.state),
      progress: progressOf(phase, snapshot.state, snapshot.progress, task.progress),
      lastNative: snapshot.raw,
      nativeUsage: snapshot.nativeUsage ?? task.nativeUsage,
      updatedAt: now,
    };
    if (snapshot.videos.length > 0 || snapshot.voices.length > 0)
      changes.result = { videos: snapshot.videos, voices: snapshot.voices };
    if (phase === 'failed') {
      changes.failureCode = snapshot.failureCode ?? 'upstream_failed';
      changes.failureReason = snapshot.failureReason ?? 'The upstream reported the task as failed.';
    }
    if (phase === 'cancelled') {
      changes.failureCode = CANCELLED;
      changes.failureReason = 'The task was cancelled at the upstream; nothing was charged.';
    }
    if (isTerminal(phase)) return this.finish(task, phase, changes);
    const attempts = task.syncAttempts + 1;
    Object.assign(changes, {
      syncAttempts: attempts,
      syncDueAt: now + this.nextPollDelay(task, attempts),
      leaseOwner: null,
      leaseUntil: null,
    });
    // Conditional: a progress report must never reopen a task someone else has just ended. One
    // statement, committed with the others of this turn on SQLite (see `runAtomic`).
    if (!(await this.transactions.runAtomic((tx) => this.tasks.updateIfOpen(task.id, changes, tx))))
      return (await this.tasks.findById(task.id)) ?? task;
    return Object.assign(task, changes);
  }

  /** Ends a task on the gateway's own decision, in the family's own failure words everywhere. */
  failByGateway(task: TaskEntity, code: string, reason: string): Promise<TaskEntity> {
    return this.finish(task, 'failed', {
      nativeStatus: this.families.statusWords(task.family).failed,
      outerStatus: 'FAILURE',
      failureCode: code,
      failureReason: reason,
      updatedAt: this.clock.nowMs(),
      // A creation the upstream never confirmed gives the caller's external_task_id back for a retry.
      ...(code === CREATION_UNCONFIRMED ? { externalTaskId: null } : {}),
    });
  }

  /**
   * The upstream refused the create call (or could not take it): nothing is charged, and the
   * caller's external_task_id is free again (the record is no task to the caller, so it must not hold the ID).
   */
  reject(task: TaskEntity, code: string, reason: string): Promise<TaskEntity> {
    return this.finish(task, 'rejected', {
      nativeStatus: this.families.statusWords(task.family).failed,
      outerStatus: 'FAILURE',
      failureCode: code,
      failureReason: reason,
      externalTaskId: null,
    });
  }

  /**
   * Ends a task its upstream has cancelled at the gateway's request, in the family's own words for it:
   * the hold released in full, the slot freed and the client callback queued, like every ending.
   * `alongside` runs in the ending's transaction (e.g. the operator's audit entry), only when this
   * call ended the task; `ended` is false when someone else ended it first (nothing was changed).
   */
  async cancel(
    task: TaskEntity,
    reason: string,
    alongside?: (tx: EntityManager) => Promise<void>,
  ): Promise<{ task: TaskEntity; ended: boolean }> {
    const words = this.families.statusWords(task.family);
    const changes = {
      nativeStatus: words.cancelled ?? words.failed,
      failureCode: CANCELLED,
      failureReason: reason,
      updatedAt: this.clock.nowMs(),
    };
    return this.end(task, 'cancelled', changes, alongside);
  }

  /**
   * The wait before a task's next poll (`attempts` counts the snapshots recorded, this one
   * included). Until tasks of its kind have finished on this instance: the back-off of `pollDelay`.
   * Then the first poll comes at the shortest usual run time of the kind (a low quantile, with
   * jitter, capped at the longest poll delay), and the back-off starts over after it from the base
   * or a twentieth of that run time, whichever is longer: a task that runs for minutes is polled a
   * few times near its end instead of all the way there, and seen ending sooner.
   */
  nextPollDelay(task: TaskEntity, attempts: number): number {
    const typical = this.config.SYNC_FIRST_POLL_LEARNED ? this.durations.typical(durationKind(task)) : undefined;
    if (typical === undefined) return this.pollDelay(attempts);
    const max = this.config.SYNC_POLL_MAX_MS;
    if (attempts === 1)
      return Math.max(this.pollDelay(1), Math.min(Math.round(typical * (0.95 + Math.random() * 0.1)), max));
    const base = Math.max(this.config.SYNC_POLL_BASE_MS, typical / 20);
    return Math.round(Math.min(base * Math.pow(1.5, attempts - 2), max) * (0.8 + Math.random() * 0.4));
  }

  /** Back-off between polls of one task: 1x, 1.5x, 2.25x ... of the base, capped, with jitter. */
  pollDelay(attempts: number): number {
    const base = Math.min(
      this.config.SYNC_POLL_BASE_MS * Math.pow(1.5, Math.max(0, attempts - 1)),
      this.config.SYNC_POLL_MAX_MS,
    );
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  /** Ends the task (see `settle`). */
  private async finish(task: TaskEntity, phase: TaskPhase, changes: Partial<TaskEntity>): Promise<TaskEntity> {
    return (await this.end(task, phase, changes)).task;
  }

  /** Settlement, as a span of the task's trace (inside the poll, create or cancel that ended it); `ended`: this call made the ending. */
  private end(
    task: TaskEntity,
    phase: TaskPhase,
    changes: Partial<TaskEntity>,
    alongside?: (tx: EntityManager) => Promise<void>,
  ): Promise<{ task: TaskEntity; ended: boolean }> {
    return withSpan('task.settle', { 'gateway.task_id': task.id, 'gateway.phase': phase }, () =>
      this.settle(task, phase, changes, alongside),
    );
  }

  private async settle(
    task: TaskEntity,
    phase: TaskPhase,
    changes: Partial<TaskEntity>,
    alongside?: (tx: EntityManager) => Promise<void>,
  ): Promise<{ task: TaskEntity; ended: boolean }> {
    const now = this.clock.nowMs();
    const final: Partial<TaskEntity> = {
      ...changes,
      phase,
      progress: phase === 'succeeded' ? 100 : (changes.progress ?? task.progress),
      outerStatus: phase === 'succeeded' ? 'SUCCESS' : 'FAILURE',
      finishedAt: now,
      updatedAt: now,
      syncDueAt: null,
      leaseOwner: null,
      leaseUntil: null,
    };
    const finished = Object.assign(new TaskEntity(), task, final);
    const charge = phase === 'succeeded' ? await this.finalCharge(finished) : null;
    // The terminal switch, the billing close, the slot and the callback commit together: a crash
    // can never leave a finished task holding money, and a second finisher changes nothing.
    // Settlements grouped (one commit for those of a sync batch on SQLite); one with work alongside
    // (an operator's audit entry, written through TypeORM) gets a transaction of its own.
    const transaction = alongside
      ? this.transactions.run.bind(this.transactions)
      : this.transactions.runGrouped.bind(this.transactions);
    const outcome = await transaction(async (tx: EntityManager) => {
      if (!(await this.tasks.updateIfOpen(task.id, final, tx))) return null;
      // The family's own records of what the task produced, committed with the switch (winner only).
      if (phase === 'succeeded') await this.families.onSucceeded(finished, tx);
      // The result files' downloads are queued with the ending, so no restart can lose them.
      if (phase === 'succeeded') await this.results?.enqueue(finished, tx);
      if (!creationFailed(finished)) await this.callbacks.enqueue(finished, tx);
      // The hold and the slot in the account row, last. False when the hold was already closed
      // (e.g. released when an unconfirmed task was adopted): the slot is freed on its own then.
      const close = { freeTaskSlot: true };
      const closed = charge
        ? await this.ledger.settle(task.accountId, task.id, task.estimatedCharge, charge, tx, close)
        : await this.ledger.release(
            task.accountId,
            task.id,
            task.estimatedCharge,
            `task ${phase}: ${final.failureCode ?? task.failureCode ?? 'no charge'}`,
            tx,
            close,
          );
      if (!closed) await this.accounts.releaseTaskSlot(task.accountId, tx);
      await alongside?.(tx);
      return { closed };
    });
    if (!outcome) return { task: (await this.tasks.findById(task.id)) ?? task, ended: false };
    this.metrics.tasksFinished.inc({ family: task.family, phase });
    if (phase === 'succeeded') this.durations.observe(durationKind(task), now - task.createdAt);
    if (outcome.closed)
      Object.assign(final, {
        billingState: charge ? 'settled' : 'released',
        finalCharge: charge ? charge.amount : null,
      });
    return { task: Object.assign(task, final), ended: true };
  }

  /**
   * Completes the ending of a task that is terminal but still holds its estimate (its terminal
   * switch committed without the billing close: a crash under an older version, or a manual
   * repair), with the same settlement or release, slot and callback as `finish`. The billing
   * switch is the gate, so any number of sweepers complete it once; true for the one that did.
   */
  async completeEnding(task: TaskEntity): Promise<boolean> {
    if (!isTerminal(task.phase) || task.billingState !== 'held') return false;
    const charge = task.phase === 'succeeded' ? await this.finalCharge(task) : null;
    const reason = `task ${task.phase}: ${task.failureCode ?? 'no charge'} (closed by the reconciliation sweep)`;
    return this.transactions.run(async (tx) => {
      const close = { freeTaskSlot: true };
      const closed = charge
        ? await this.ledger.settle(task.accountId, task.id, task.estimatedCharge, charge, tx, close)
        : await this.ledger.release(task.accountId, task.id, task.estimatedCharge, reason, tx, close);
      if (!closed) return false;
      if (!creationFailed(task)) await this.callbacks.enqueue(task, tx);
      return true;
    });
  }

  /** The gateway's own final charge for a succeeded task (output seconds), never above the hold. */
  private async finalCharge(task: TaskEntity): Promise<SettlementCharge> {
    const outputSeconds = task.result?.videos.find((v) => typeof v.durationSeconds === 'number')?.durationSeconds;
    let amount = task.estimatedCharge;
    let priceVersion = task.priceVersion ?? this.pricing.table().version;
    let breakdown: Record<string, number> = {};
    try {
      ({ amount, priceVersion, breakdown } = await this.pricing.final(
        task.model,
        task.billableUsage,
        { outputSeconds },
        task.priceVersion,
      ));
    } catch (error) {
      // A pricing fault must not leave the hold open forever: settle at the held estimate.
      this.logger.error({ err: error, taskId: task.id }, 'final charge could not be priced; settling at the estimate');
    }
    return {
      amount: Math.min(amount, task.estimatedCharge),
      priceVersion,
      model: task.model,
      action: task.action,
      usage: { ...snakeCaseKeys(task.billableUsage), ...this.outputSecondsOf(task, outputSeconds), breakdown },
    };
  }

  /**
   * The seconds billed as output, for the usage row: the upstream's figure where it reports one,
   * else the requested duration (`output_seconds_source` says which); null for work not priced by time.
   */
  private outputSecondsOf(
    task: TaskEntity,
    reported: number | undefined,
  ): { output_seconds: number | null; output_seconds_source: 'upstream' | 'requested' | null } {
    try {
      const billed = this.pricing.billedSeconds(task.billableUsage, { outputSeconds: reported });
      if (billed.seconds > 0)
        return { output_seconds: billed.seconds, output_seconds_source: billed.reported ? 'upstream' : 'requested' };
    } catch {
      // Unreadable usage: the row still records the charge; the seconds stay unknown.
    }
    return { output_seconds: null, output_seconds_source: null };
  }
}

/** The failure code of a cancelled task (whoever asked for the cancel). */
export const CANCELLED = 'cancelled';

/** The failure code of a creation the upstream never confirmed (the sync worker found no such task). */
export const CREATION_UNCONFIRMED = 'creation_unconfirmed';

/**
 * The caller never got this task's ID: the upstream refused the create call (`rejected`), or the
 * creation was never confirmed. No client callback is sent for it (its ID answers 404).
 */
export function creationFailed(task: Pick<TaskEntity, 'phase' | 'failureCode'>): boolean {
  return task.phase === 'rejected' || (task.phase === 'failed' && task.failureCode === CREATION_UNCONFIRMED);
}

/** Usage rows speak one naming style (snake_case, like the API): `durationSeconds` -> `duration_seconds`. */
export function snakeCaseKeys(value: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]),
  );
}
