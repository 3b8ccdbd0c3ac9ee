import Database from 'better-sqlite3';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { DataSource } from 'typeorm';
import { setFastPaths } from '../config/fast-paths';
import {
  WAL_CHECKPOINT_WORKER_LIMITS,
  WAL_RESTART_FRAMES,
  WAL_SIZE_LIMIT_BYTES,
  WalCheckpointer,
} from './wal-checkpointer';

/** The two things the checkpointer reads from TypeORM: the options and the driver's connection. */
function fakeDataSource(db: Database.Database, database: string, type = 'better-sqlite3'): DataSource {
  return { options: { type, database }, driver: { databaseConnection: db } } as unknown as DataSource;
}

const workerOf = (checkpointer: WalCheckpointer) => (checkpointer as unknown as { worker: Worker | undefined }).worker;
const autocheckpoint = (db: Database.Database) => db.pragma('wal_autocheckpoint', { simple: true });

/** The WAL header's checkpoint sequence number: SQLite adds one each time the WAL restarts from the top. */
function walRestarts(file: string): number {
  const fd = openSync(`${file}-wal`, 'r');
  try {
    const header = Buffer.alloc(16);
    readSync(fd, header, 0, 16, 0);
    return header.readUInt32BE(12);
  } finally {
    closeSync(fd);
  }
}

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('WalCheckpointer', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;
  let checkpointer: WalCheckpointer | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
    file = join(dir, 'db.sqlite');
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v TEXT)');
  });

  afterEach(async () => {
    await checkpointer?.onModuleDestroy();
    checkpointer = undefined;
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checkpoints a file database from a worker thread, with the automatic checkpoint off', async () => {
    checkpointer = new WalCheckpointer(fakeDataSource(db, file));
    checkpointer.onApplicationBootstrap();
    expect(workerOf(checkpointer)).toBeDefined();
    expect(autocheckpoint(db)).toBe(0);
    const before = statSync(file).size;
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 500; i++) insert.run('x'.repeat(1000));
    })();
    // The rows are in the WAL only until a checkpoint copies them into the database file.
    expect(statSync(file).size).toBe(before);
    await until(() => statSync(file).size > before + 400_000);
  });

  it('keeps the WAL bounded under steady writes (the writer restarts it once a checkpoint has caught up)', async () => {
    checkpointer = new WalCheckpointer(fakeDataSource(db, file));
    Object.assign(checkpointer.settings, { intervalMs: 10, restartFrames: 256 });
    checkpointer.onApplicationBootstrap();
    await new Promise((resolve) => workerOf(checkpointer!)!.once('online', resolve));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const walSize = () => statSync(`${file}-wal`).size;
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    // ~80 MB through the WAL in single-row transactions, written back to back with only a turn of
    // the event loop between bursts, as a busy gateway does. Without the main thread's finishing
    // pass the WAL grows to most of it (measured: 51 to 80 MB); with it, 8 to 19 MB on an idle
    // machine and up to 27 MB beside the rest of the suite on 2 cores. The bound sits between.
    let largest = 0;
    for (let burst = 0; burst < 200; burst++) {
      for (let i = 0; i < 50; i++) insert.run('x'.repeat(2000));
      largest = Math.max(largest, walSize());
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(largest).toBeLessThan(40 * 1024 * 1024);
  });

  it("restarts the WAL at the next write once a worker's report has the main thread finish the checkpoint", () => {
    checkpointer = new WalCheckpointer(fakeDataSource(db, file));
    // The worker's timer never fires here: only the report below checkpoints.
    Object.assign(checkpointer.settings, { intervalMs: 3_600_000 });
    checkpointer.onApplicationBootstrap();
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    for (let i = 0; i < 100; i++) insert.run('x'.repeat(2000));
    const restarts = walRestarts(file);
    insert.run('x');
    expect(walRestarts(file)).toBe(restarts);
    workerOf(checkpointer)!.emit('message', { behind: 100 });
    insert.run('x');
    expect(walRestarts(file)).toBe(restarts + 1);
  });

  it('finishes on the event loop only once the WAL is as large as it may stay after a restart', () => {
    // The finishing pass blocks the event loop for its fsyncs: as rare as the size cap allows, and
    // never past it (SQLite would truncate the file at each restart and grow it again).
    expect(db.pragma('page_size', { simple: true })).toBe(4096);
    const frame = 4096 + 24;
    const restartBytes = 32 + WAL_RESTART_FRAMES * frame;
    expect(restartBytes).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
    expect(restartBytes).toBeGreaterThan(WAL_SIZE_LIMIT_BYTES - frame);
  });

  it('finishes a checkpoint only outside a transaction of its connection (SQLite refuses one inside)', () => {
    checkpointer = new WalCheckpointer(fakeDataSource(db, file));
    checkpointer.onApplicationBootstrap();
    const warn = jest.spyOn((checkpointer as unknown as { logger: { warn(message: string): void } }).logger, 'warn');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    db.exec('BEGIN');
    insert.run('x');
    workerOf(checkpointer)!.emit('message', { behind: 5000 });
    db.exec('COMMIT');
    expect(warn).not.toHaveBeenCalled();
    workerOf(checkpointer)!.emit('message', { behind: 5000 });
    expect(warn).not.toHaveBeenCalled();
  });

  it('caps the worker heap (its own isolate would otherwise size itself like the main thread)', () => {
    checkpointer = new WalCheckpointer(fakeDataSource(db, file));
    checkpointer.onApplicationBootstrap();
    const limits = workerOf(checkpointer)!.resourceLimits!;
    expect(limits.maxYoungGenerationSizeMb).toBe(WAL_CHECKPOINT_WORKER_LIMITS.maxYoungGenerationSizeMb);
    expect(limits.maxOldGenerationSizeMb).toBe(WAL_CHECKPOINT_WORKER_LIMITS.maxOldGenerationSizeMb);
    expect(limits.maxYoungGenerationSizeMb).toBeLessThanOrEqual(1);
    expect(limits.maxOldGenerationSizeMb).toBeLessThanOrEqual(8);
  });

  it('switches the automatic checkpoint back on when the worker dies', async () => {
    checkpointer = new WalCheckpointer(fakeDataSource(db, file));
    checkpointer.onApplicationBootstrap();
    await workerOf(checkpointer)!.terminate();
    await until(() => autocheckpoint(db) === 1000);
  });

  it('stops the worker on shutdown', async () => {
    checkpointer = new WalCheckpointer(fakeDataSource(db, file));
    checkpointer.onApplicationBootstrap();
    const worker = workerOf(checkpointer)!;
    const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
    await checkpointer.onModuleDestroy();
    await exited;
    expect(workerOf(checkpointer)).toBeUndefined();
  });

  it('starts no worker for an in-memory database or another driver', () => {
    const memory = new Database(':memory:');
    try {
      for (const source of [fakeDataSource(memory, ':memory:'), fakeDataSource(db, file, 'postgres')]) {
        const other = new WalCheckpointer(source);
        other.onApplicationBootstrap();
        expect(workerOf(other)).toBeUndefined();
      }
      expect(autocheckpoint(db)).toBe(1000);
    } finally {
      memory.close();
    }
  });

  it("leaves checkpoints to SQLite's automatic one when fast paths are off (FAST_PATHS=false)", () => {
    setFastPaths(false);
    try {
      checkpointer = new WalCheckpointer(fakeDataSource(db, file));
      checkpointer.onApplicationBootstrap();
    } finally {
      setFastPaths(true);
    }
    expect(workerOf(checkpointer)).toBeUndefined();
    expect(autocheckpoint(db)).toBe(1000);
  });
});
