import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { newId } from '../../platform/ids/ids';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { untraced } from '../../platform/telemetry/spans';
import { Clock } from '../../platform/time/clock';
import { WorkerLoop } from '../../platform/workers/worker-loop';
import { runPool } from './run-pool';
import { TaskSyncService } from './task-sync.service';
import { TaskEntity } from './entities/task.entity';
import { TasksRepository } from './tasks.repository';

/**
 * How long a task stays with the worker that leased it: a dead instance's tasks come back this soon (and a create cut
 * by its death stops answering a keyed retry with 409). A sync may run longer (an upstream's slow answers and their
 * retries): its lease is renewed every `RENEW_EVERY_MS` while it runs, so it survives a missed renewal.
 */
export const SYNC_LEASE_MS = 15_000;
export const RENEW_EVERY_MS = 5_000;

/**
 * Keeps every non-terminal task in step with its upstream: each cycle leases the due tasks
 * (never a finished one) and syncs them through a bounded pool. Several instances share the work
 * through the leases.
 */
@Injectable()
export class TaskSyncWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TaskSyncWorker');
  private readonly owner = newId('worker');
  /** Tasks this worker leased and is syncing (or about to), by ID: where their lease ends. */
  private readonly leased = new Map<string, number>();
  private renewTimer: NodeJS.Timeout | null = null;
  private renewing = false;
  private readonly loop = new WorkerLoop(
    'sync',
    this.logger,
    () => this.runCycle(),
    () => this.config.SYNC_INTERVAL_MS,
  );

  constructor(
    private readonly tasks: TasksRepository,
    private readonly sync: TaskSyncService,
    private readonly metrics: MetricsService,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.metrics.countTasksInFlightWith(() => this.tasks.countOpen());
    // Also without the loop: a callback-triggered sync leases its task too.
    this.renewTimer = setInterval(() => void this.renewLeases(), RENEW_EVERY_MS);
    this.renewTimer.unref();
    // A full batch means more is due: go again at once.
    if (this.config.WORKERS_ENABLED)
      this.loop.start(0, (count) => ((count ?? 0) >= this.config.SYNC_BATCH_SIZE ? 0 : this.config.SYNC_INTERVAL_MS));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    if (this.renewTimer) clearInterval(this.renewTimer);
  }

  /** One cycle: lease due tasks and sync them; returns how many were synced. */
  async runCycle(): Promise<number> {
    const started = process.hrtime.bigint();
    const now = this.clock.nowMs();
    // The scan is not traced (an idle one every cycle on every instance); each task's sync is, in its own trace.
    const leaseUntil = now + SYNC_LEASE_MS;
    const due = await untraced(() => this.tasks.claimDue(this.owner, now, leaseUntil, this.config.SYNC_BATCH_SIZE));
    for (const task of due) {
      this.leased.set(task.id, leaseUntil);
      if (task.syncDueAt !== null) this.metrics.syncLagSeconds.observe(Math.max(0, now - task.syncDueAt) / 1000);
    }
    await runPool(due, this.config.SYNC_CONCURRENCY, (task) => this.syncLeased(task));
    this.metrics.syncCycleSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    return due.length;
  }

  /** Syncs one task now (upstream callback), unless another worker holds it or its creating request still runs. */
  async syncNow(taskId: string): Promise<void> {
    const now = this.clock.nowMs();
    const task = await this.tasks.claimOne(taskId, this.owner, now, now + SYNC_LEASE_MS);
    if (!task) return;
    this.leased.set(task.id, now + SYNC_LEASE_MS);
    await this.syncLeased(task);
  }

  /**
   * Renews the leases of syncs that have run for a renewal period or more (most end in milliseconds, and cost no
   * statement here). A lease given up or taken over meanwhile is no longer this worker's to renew.
   */
  async renewLeases(): Promise<void> {
    if (this.renewing) return;
    this.renewing = true;
    try {
      for (const [id, until] of this.leased) {
        const now = this.clock.nowMs();
        if (until - now > SYNC_LEASE_MS - RENEW_EVERY_MS) continue;
        const renewed = await this.tasks.renewLease(id, this.owner, now + SYNC_LEASE_MS);
        // Only while its sync still runs (it may have ended during the statement).
        if (renewed && this.leased.has(id)) this.leased.set(id, now + SYNC_LEASE_MS);
        else this.leased.delete(id);
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'renewing sync leases failed; will retry');
    } finally {
      this.renewing = false;
    }
  }

  private async syncLeased(task: TaskEntity): Promise<void> {
    try {
      await this.sync.sync(task);
    } finally {
      this.leased.delete(task.id);
    }
  }
}
