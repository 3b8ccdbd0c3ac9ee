import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { newId } from '../../platform/ids/ids';
import { untraced, withTaskSpan } from '../../platform/telemetry/spans';
import { Clock } from '../../platform/time/clock';
import { WorkerLoop } from '../../platform/workers/worker-loop';
import { runPool } from '../tasks/run-pool';
import { ResultFilesRepository } from './result-files.repository';
import { KeepOutcome, ResultKeeper } from './result-keeper.service';

/**
 * Works the keep queue off the request path: each cycle leases due downloads (the lease is one
 * download's whole time limit, so two instances never fetch the same file at once, and a dead
 * instance's downloads come back once it runs out) and runs them through a bounded pool.
 */
@Injectable()
export class ResultKeepWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ResultKeepWorker');
  private readonly owner = newId('worker');
  private readonly loop = new WorkerLoop(
    'result keep',
    this.logger,
    () => this.runCycle(),
    () => this.idleMs(),
  );

  constructor(
    private readonly files: ResultFilesRepository,
    private readonly keeper: ResultKeeper,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const batch = this.config.RESULT_DOWNLOAD_CONCURRENCY;
    // A full batch means more is due: go again at once.
    if (this.config.WORKERS_ENABLED && this.keeper.enabled)
      this.loop.start(0, (count) => ((count ?? 0) >= batch ? 0 : this.idleMs()));
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** One cycle: lease due downloads and run them; returns how many were leased. */
  async runCycle(): Promise<number> {
    const now = this.clock.nowMs();
    const limit = this.config.RESULT_DOWNLOAD_CONCURRENCY;
    const leaseUntil = now + this.config.RESULT_DOWNLOAD_TIMEOUT_MS + 1000;
    const due = await untraced(() => this.files.claimDue(this.owner, now, leaseUntil, limit));
    const outcomes: KeepOutcome[] = [];
    await runPool(due, limit, (file) =>
      withTaskSpan(
        'result.download',
        file.traceContext,
        { 'gateway.task_id': file.taskId, 'gateway.result_slot': file.slot, 'gateway.result_attempt': file.attempts },
        async () => void outcomes.push(await this.keeper.attempt(file)),
      ),
    );
    // The cycle's outcomes commit together: one transaction for the batch, not one per file.
    await this.keeper.record(outcomes, this.owner);
    return due.length;
  }

  /**
   * The wait after a cycle that found less than a batch: one sync interval, the pace at which tasks
   * end. Files are then kept a few at a time as their tasks end, not in bursts that hold the event
   * loop from the requests of that moment.
   */
  private idleMs(): number {
    return this.config.SYNC_INTERVAL_MS;
  }
}
