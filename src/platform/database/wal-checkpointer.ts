import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import { DataSource } from 'typeorm';

/** How often the WAL is copied back into the database file. */
export const WAL_CHECKPOINT_INTERVAL_MS = 250;

/**
 * The worker's V8 heap limits. It holds a connection and a timer (its heap stays near 4 MB); a
 * worker thread is a whole Node environment, ~9 MB of RSS (measured), and these limits keep its
 * isolate from sizing its heap like the main thread's (young generation up to 2x16 MB).
 */
export const WAL_CHECKPOINT_WORKER_LIMITS = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 } as const;

/** Runs in the worker thread: its own connection to the same file, a PASSIVE checkpoint on a timer. */
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { parentPort.postMessage(String(error && error.message)); }
}, workerData.intervalMs);
parentPort.on('message', (m) => { if (m === 'stop') { clearInterval(timer); try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} db.close(); process.exit(0); } });
`;

/**
 * SQLite's automatic checkpoint runs inside a commit, on the event loop, every 1,000 WAL pages
 * (about every 45 creates), stalling every request in flight for ~10 ms. On a file database the
 * gateway turns it off and checkpoints from a worker thread with its own connection instead
 * (PASSIVE: never blocks the writer; the writer restarts the WAL from the top once a checkpoint
 * has caught up). If the worker cannot start or dies, the automatic checkpoint is switched back on.
 */
@Injectable()
export class WalCheckpointer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WalCheckpointer');
  private worker: Worker | undefined;

  constructor(private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    const options = this.dataSource.options;
    if (options.type !== 'better-sqlite3' || !options.database || options.database === ':memory:') return;
    const db = (this.dataSource.driver as unknown as { databaseConnection: { pragma(s: string): unknown } }).databaseConnection;
    const automatic = () => {
      try {
        db.pragma('wal_autocheckpoint = 1000');
      } catch {
        /* connection already closed */
      }
    };
    try {
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { driver: require.resolve('better-sqlite3'), path: options.database, intervalMs: WAL_CHECKPOINT_INTERVAL_MS },
        resourceLimits: { ...WAL_CHECKPOINT_WORKER_LIMITS },
      });
      worker.unref();
      worker.on('message', (message: string) => this.logger.warn(`WAL checkpoint failed: ${message}`));
      worker.on('error', (error) => {
        this.logger.warn(`WAL checkpoint worker stopped (${error.message}); automatic checkpoints are back on`);
        automatic();
      });
      worker.on('exit', () => {
        if (this.worker === worker) automatic();
        this.worker = undefined;
      });
      this.worker = worker;
      db.pragma('wal_autocheckpoint = 0');
    } catch (error) {
      this.logger.warn(`WAL checkpoint worker not started (${(error as Error).message}); automatic checkpoints stay on`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('stop');
    await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 2000).unref())]);
    await worker.terminate().catch(() => undefined);
  }
}
