import { Logger } from '@nestjs/common';

/**
 * A background loop: runs `cycle`, waits the delay the cycle asks for (0 when it left work
 * behind), and again, until stopped; a failing cycle is logged and retried after `idleMs`.
 * Timers are unref'd so a loop never keeps the process alive, and `stop()` waits for the cycle
 * in progress.
 */
export class WorkerLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly logger: Logger,
    private readonly cycle: () => Promise<number | void>,
    private readonly idleMs: () => number,
  ) {}

  /** `nextDelay` gets the cycle's result (e.g. how much it did) and returns the pause before the next one. */
  start(firstDelayMs: number, nextDelay: (result: number | void) => number = () => this.idleMs()): void {
    this.stopped = false;
    this.schedule(firstDelayMs, nextDelay);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private schedule(delay: number, nextDelay: (result: number | void) => number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.cycle()
        .then((result) => this.schedule(nextDelay(result), nextDelay))
        .catch((error: unknown) => {
          this.logger.error({ err: error }, `${this.name} cycle failed`);
          this.schedule(this.idleMs(), nextDelay);
        });
    }, delay);
    this.timer.unref();
  }
}
