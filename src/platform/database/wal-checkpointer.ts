import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import { DataSource } from 'typeorm';
import { fastPathsOn } from '../config/fast-paths';
import { sqliteConnectionOf } from '../internals/typeorm-internals';

/** How often the WAL is copied back into the database file. */
export const WAL_CHECKPOINT_INTERVAL_MS = 250;

/** Cap on the WAL file once it restarts (SQLite truncates it to this), so a burst leaves no 1 GB file behind. */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** One WAL frame: a 4 KB page and its 24-byte header; the file starts with a 32-byte header. */
const WAL_FRAME_BYTES = 4096 + 24;
const WAL_HEADER_BYTES = 32;

/**
 * WAL size (in frames) past which the gateway's own connection finishes a checkpoint itself, so
 * that the WAL starts again from the top. Under steady writes the worker's checkpoints never catch
 * up with the writer (a write always lands while one runs), and SQLite only restarts the WAL when a
 * write begins with every frame already copied: the file grew without bound, and writing into ever
 * new file space costs the writer more system time. The finishing pass blocks the event loop for
 * its two fsyncs, so it waits until the WAL is as large as it is allowed to stay, and the file,
 * never above the cap, is reused rather than truncated (docs/benchmarks.md, "Durability (SQLite)").
 */
export const WAL_RESTART_FRAMES = Math.floor((WAL_SIZE_LIMIT_BYTES - WAL_HEADER_BYTES) / WAL_FRAME_BYTES);

/**
 * The worker's V8 heap limits. It holds a connection and a timer, and a worker thread is a whole
 * Node environment: these limits keep its isolate from sizing its heap like the main thread's
 * (docs/benchmarks.md, "Durability (SQLite)").
 */
export const WAL_CHECKPOINT_WORKER_LIMITS = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 } as const;

/**
 * Runs in the worker thread: its own connection to the same file, a PASSIVE checkpoint on a timer,
 * repeated while each pass leaves frames behind (the later passes are small, and one that lands
 * between two writes lets the writer restart the WAL). When the WAL is still past the restart
 * size, it tells the main thread, which finishes the checkpoint on the writer's own connection.
 */
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
const pass = () => db.pragma('wal_checkpoint(PASSIVE)')[0];
const timer = setInterval(() => {
  try {
    let r = pass();
    for (let i = 0; i < 8 && r.log > r.checkpointed; i++) r = pass();
    if (r.log >= workerData.restartFrames) parentPort.postMessage({ behind: r.log });
  } catch (error) { parentPort.postMessage({ error: String(error && error.message) }); }
}, workerData.intervalMs);
parentPort.on('message', (m) => { if (m === 'stop') { clearInterval(timer); try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} db.close(); process.exit(0); } });
`;

interface WorkerReport {
  behind?: number;
  error?: string;
}

/**
 * SQLite's automatic checkpoint runs inside a commit, on the event loop, every 1,000 WAL pages
 * (about every 45 creates), stalling every request in flight for ~10 ms. On a file database the
 * gateway turns it off and checkpoints from a worker thread with its own connection instead
 * (PASSIVE: never blocks the writer). The WAL restarts from the top when a write begins with every
 * frame copied; when the worker's passes cannot get there (steady writes), the main thread runs
 * one PASSIVE pass itself once the WAL passes `WAL_RESTART_FRAMES`: the worker has already copied
 * all but the last few frames, and no write of this process can land between that pass and the
 * next write, which then restarts the WAL. If the worker cannot start or dies, the automatic
 * checkpoint is switched back on.
 */
@Injectable()
export class WalCheckpointer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WalCheckpointer');
  private worker: Worker | undefined;
  /** Tests shorten these; production uses the defaults. */
  readonly settings = { intervalMs: WAL_CHECKPOINT_INTERVAL_MS, restartFrames: WAL_RESTART_FRAMES };

  constructor(private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    const options = this.dataSource.options;
    if (options.type !== 'better-sqlite3' || !options.database || options.database === ':memory:') return;
    // FAST_PATHS=false: SQLite's own automatic checkpoint.
    if (!fastPathsOn('wal-checkpointer')) return;
    const db = sqliteConnectionOf(this.dataSource);
    const finish = () => {
      // Not inside a transaction of this connection (SQLite refuses: "database table is locked"); the worker reports
      // again.
      if (db.inTransaction) return;
      try {
        db.pragma('wal_checkpoint(PASSIVE)');
      } catch (error) {
        this.logger.warn(`WAL checkpoint failed: ${(error as Error).message}`);
      }
    };
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
        workerData: { driver: require.resolve('better-sqlite3'), path: options.database, ...this.settings },
        resourceLimits: { ...WAL_CHECKPOINT_WORKER_LIMITS },
      });
      worker.unref();
      worker.on('message', (report: WorkerReport) => {
        if (report.error) this.logger.warn(`WAL checkpoint failed: ${report.error}`);
        else if (report.behind) finish();
      });
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
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    } catch (error) {
      this.logger.warn(
        `WAL checkpoint worker not started (${(error as Error).message}); automatic checkpoints stay on`,
      );
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
