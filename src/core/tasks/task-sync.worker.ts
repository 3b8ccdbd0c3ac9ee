import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { newId } from '../../platform/ids/ids';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { untraced } from '../../platform/telemetry/spans';
import { Clock } from '../../platform/time/clock';
import { WorkerLoop } from '../../platform/workers/worker-loop';
import { runPool } from './run-pool';
import { TaskSyncService } from './task-sync.service';
import { TasksRepository } from './tasks.repository';

/** Lease long enough for one sync of one task, short enough that a dead instance's tasks come back soon. */
const LEASE_MS = 60000;

/**
 * Keeps every non-terminal task in step with its upstream: each cycle leases the due tasks
 * (never a finished one) and syncs them through a bounded pool. Several instances share the work
 * through the leases.
 */
@Injectable()
export class TaskSyncWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TaskSyncWorker');
  private readonly owner = newId('worker');
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
    // A full batch means more is due: go again at once.
    if (this.config.WORKERS_ENABLED)
      this.loop.start(0, (count) => ((count ?? 0) >= this.config.SYNC_BATCH_SIZE ? 0 : this.config.SYNC_INTERVAL_MS));
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** One cycle: lease due tasks and sync them; returns how many were synced. */
  async runCycle(): Promise<number> {
    const started = process.hrtime.bigint();
    const now = this.clock.nowMs();
    // The scan is not traced (an idle one every cycle on every instance); each task's sync is, in its own trace.
    const due = await untraced(() => this.tasks.claimDue(this.owner, now, now + LEASE_MS, this.config.SYNC_BATCH_SIZE));
    for (const task of due)
      if (task.syncDueAt !== null) this.metrics.syncLagSeconds.observe(Math.max(0, now - task.syncDueAt) / 1000);
    await runPool(due, this.config.SYNC_CONCURRENCY, (task) => this.sync.sync(task));
    this.metrics.syncCycleSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    return due.length;
  }

  /** Syncs one task now (upstream callback), unless another worker holds it. */
  async syncNow(taskId: string): Promise<void> {
    const now = this.clock.nowMs();
    const task = await this.tasks.claimOne(taskId, this.owner, now, now + LEASE_MS);
    if (task) await this.sync.sync(task);
  }
}
