import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { Clock } from '../../platform/time/clock';
import { WorkerLoop } from '../../platform/workers/worker-loop';
import { ObjectStore } from './object-store';
import { ResultFilesRepository } from './result-files.repository';

/** Copies removed per cycle (a full batch runs the next cycle at once). */
const BATCH = 100;

/**
 * Removes kept copies once their retention (RESULT_RETENTION_DAYS after the task ended) has run
 * out; their URLs answer 404 from then on. Safe on any number of instances: the switch to
 * `removed` is conditional, and deleting an absent object is no error.
 */
@Injectable()
export class ResultRetentionSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ResultRetention');
  private readonly loop = new WorkerLoop(
    'result retention',
    this.logger,
    () => this.runCycle(),
    () => this.config.RECONCILE_INTERVAL_MS,
  );

  constructor(
    private readonly files: ResultFilesRepository,
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const interval = this.config.RECONCILE_INTERVAL_MS;
    if (this.config.WORKERS_ENABLED && this.config.RESULT_STORE !== 'off')
      this.loop.start(interval, (removed) => ((removed ?? 0) >= BATCH ? 0 : interval));
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** Removes the copies past retention; how many. */
  async runCycle(): Promise<number> {
    const now = this.clock.nowMs();
    let removed = 0;
    for (const file of await this.files.expired(now, BATCH)) {
      // The row first: once it says removed, no one serves the copy, so deleting it cannot cut a reader short of a 404.
      if (!(await this.files.markRemoved(file.id, now))) continue;
      if (file.storageKey) await this.store.delete(file.storageKey);
      removed++;
    }
    if (removed > 0) this.logger.log({ removed }, 'kept result files past retention removed');
    return removed;
  }
}
