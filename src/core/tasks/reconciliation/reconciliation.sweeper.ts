import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../../platform/config/app-config';
import { Clock } from '../../../platform/time/clock';
import { WorkerLoop } from '../../../platform/workers/worker-loop';
import { runPool } from '../run-pool';
import { TaskLifecycle } from '../task-lifecycle.service';
import { ReconciliationRepository } from './reconciliation.repository';
import { SlotDriftTracker } from './slot-drift';

/** Ended tasks per cycle whose billing is completed (a full batch runs the next cycle at once). */
const ENDING_BATCH = 100;
/** Accounts per cycle whose in-flight counter is checked; the scan resumes where it stopped. */
const ACCOUNT_PAGE = 500;

export interface SweepReport {
  /** Ended tasks whose hold this sweep settled or released. */
  endingsCompleted: number;
  /** Accounts whose in-flight counter was recounted from their open tasks. */
  slotsRecounted: number;
}

/**
 * The periodic reconciliation sweep (with the workers only), so that nothing stays open forever
 * after a crash: (a) a terminal task whose hold was never closed is settled or released through
 * TaskLifecycle, exactly as its finisher would have; (b) an account's in-flight counter that has
 * drifted from its number of open tasks is recounted. Creations that never confirmed are the
 * sync worker's (TaskSyncService.reconcile). Safe on any number of instances: every correction
 * is a conditional update.
 */
@Injectable()
export class ReconciliationSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Reconciliation');
  private readonly drift = new SlotDriftTracker();
  private accountCursor = '';
  private readonly loop = new WorkerLoop(
    'reconciliation',
    this.logger,
    async () => (await this.runCycle()).endingsCompleted,
    () => this.config.RECONCILE_INTERVAL_MS,
  );

  constructor(
    private readonly repo: ReconciliationRepository,
    private readonly lifecycle: TaskLifecycle,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // A full batch of endings means more may be waiting: go again at once.
    const interval = this.config.RECONCILE_INTERVAL_MS;
    if (this.config.WORKERS_ENABLED)
      this.loop.start(interval, (completed) => ((completed ?? 0) >= ENDING_BATCH ? 0 : interval));
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** Endings first: a completed ending gives its slot back before the counters are compared. */
  async runCycle(): Promise<SweepReport> {
    const report = { endingsCompleted: await this.completeEndings(), slotsRecounted: await this.recountSlots() };
    if (report.endingsCompleted > 0 || report.slotsRecounted > 0)
      this.logger.warn(report, 'reconciliation sweep repaired state left by a crash');
    return report;
  }

  private async completeEndings(): Promise<number> {
    // Ended more than one sweep ago and still holding money: whoever ended it did not close it.
    // (Endings commit with their billing, so this is a crash from an older version or a repair.)
    const ended = await this.repo.terminalStillHeld(
      this.clock.nowMs() - this.config.RECONCILE_INTERVAL_MS,
      ENDING_BATCH,
    );
    let completed = 0;
    await runPool(ended, 4, async (task) => {
      try {
        if (await this.lifecycle.completeEnding(task)) completed++;
      } catch (error) {
        this.logger.error(
          { err: error, taskId: task.id },
          'could not complete the ending of a task; the next sweep retries',
        );
      }
    });
    return completed;
  }

  private async recountSlots(): Promise<number> {
    const page = await this.repo.slotCounts(this.accountCursor, ACCOUNT_PAGE);
    this.accountCursor = page.length < ACCOUNT_PAGE ? '' : page[page.length - 1].accountId;
    let recounted = 0;
    for (const row of this.drift.confirm(page)) {
      if (await this.repo.recountSlots(row.accountId, row.inFlight)) recounted++;
    }
    return recounted;
  }
}
