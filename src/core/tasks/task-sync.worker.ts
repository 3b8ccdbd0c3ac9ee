import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { httpOptionsFromConfig } from '../../upstream';
import { newId } from '../../platform/ids/ids';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { Clock } from '../../platform/time/clock';
import { WorkerLoop } from '../../platform/workers/worker-loop';
import { runPool } from './run-pool';
import { TaskSyncService } from './task-sync.service';
import { TasksRepository } from './tasks.repository';

/** Never shorter than this: a dead instance's tasks come back within it at the earliest. */
const MIN_LEASE_MS = 60_000;
/** Beyond the polls: the database work of the syncs, and clock steps between instances. */
const LEASE_MARGIN_MS = 10_000;

type LeaseConfig = Pick<AppConfig, 'SYNC_BATCH_SIZE' | 'SYNC_CONCURRENCY' | 'UPSTREAM_TIMEOUT_MS' | 'UPSTREAM_CONNECT_TIMEOUT_MS' | 'UPSTREAM_READ_TIMEOUT_MS'>;

/**
 * How long the leases of one batch last. A batch of `batch` tasks is synced `concurrency` at a
 * time, and each sync may take a poll's worst case: every attempt at the read timeout, plus the
 * back-off between attempts. A lease that ran out before its task's turn came would let another
 * instance poll the same task at the same time. With the defaults (50 tasks, 16 at a time, 10 s
 * reads, 2 retries) that is 4 x 34 s + 10 s = 146 s.
 */
export function syncLeaseMs(config: LeaseConfig, batch = config.SYNC_BATCH_SIZE): number {
  const http = httpOptionsFromConfig(config);
  const pollWorstMs = (http.readRetries + 1) * http.readTimeoutMs + http.readRetries * http.retryMaxDelayMs;
  const waves = Math.ceil(batch / config.SYNC_CONCURRENCY);
  return Math.max(MIN_LEASE_MS, waves * pollWorstMs + LEASE_MARGIN_MS);
}

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
    if (this.config.WORKERS_ENABLED) this.loop.start(0, (count) => ((count ?? 0) >= this.config.SYNC_BATCH_SIZE ? 0 : this.config.SYNC_INTERVAL_MS));
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** One cycle: lease due tasks and sync them; returns how many were synced. */
  async runCycle(): Promise<number> {
    const started = process.hrtime.bigint();
    const now = this.clock.nowMs();
    const due = await this.tasks.claimDue(this.owner, now, now + syncLeaseMs(this.config), this.config.SYNC_BATCH_SIZE);
    await runPool(due, this.config.SYNC_CONCURRENCY, (task) => this.sync.sync(task));
    this.metrics.syncCycleSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    return due.length;
  }

  /** Syncs one task now (upstream callback), unless another worker holds it. */
  async syncNow(taskId: string): Promise<void> {
    const now = this.clock.nowMs();
    const task = await this.tasks.claimOne(taskId, this.owner, now, now + syncLeaseMs(this.config, 1));
    if (task) await this.sync.sync(task);
  }
}
