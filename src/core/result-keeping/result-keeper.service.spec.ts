import { Logger } from '@nestjs/common';
import { existsSync, readFileSync } from 'fs';
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { join } from 'path';
import { UpstreamResultDownloads } from '../../bootstrap/upstream-wiring.module';
import { loadConfig } from '../../platform/config/app-config';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { FsObjectStore } from '../../platform/storage/fs-object-store';
import { ManualClock } from '../../platform/time/clock';
import { FileDownloads } from '../../upstream/http/file-downloads';
import { createTestUpstream } from '../../../test/upstream/test-upstream';
import { ResultFileEntity } from './result-file.entity';
import { ResultFilesRepository } from './result-files.repository';
import { ResultKeeper, SMALL_RESULT_BYTES } from './result-keeper.service';
import { StoredTotals } from './stored-totals';
import { ResultMetrics } from './result-metrics';
import { FakeTransactionRunner } from '../../../test/fakes';
import { taskFactory } from '../../../test/factories';
import { tempDirs } from '../../../test/support/temp-dirs';
import type { EntityManager } from 'typeorm';

/** What the keeper asks of its repository: the outcome of each attempt, recorded under the lease. */
class FakeFiles {
  settled: Array<Partial<ResultFileEntity>> = [];
  stored = 0;
  /** false: the lease was taken back (task deleted) or over (another instance) before the outcome. */
  leaseHeld = true;
  /** The row as it is now, read when the lease was lost. */
  row: Partial<ResultFileEntity> | null = null;
  /** What `discardForTask` changes. */
  discarded: Array<Partial<ResultFileEntity>> = [];
  settle(_id: string, _owner: string, changes: Partial<ResultFileEntity>): Promise<boolean> {
    this.settled.push(changes);
    return Promise.resolve(this.leaseHeld);
  }
  findById(): Promise<Partial<ResultFileEntity> | null> {
    return Promise.resolve(this.row);
  }
  discardForTask(): Promise<Array<Partial<ResultFileEntity>>> {
    return Promise.resolve(this.discarded);
  }
  /** Each `add` call: the rows it inserts together. */
  added: ResultFileEntity[][] = [];
  add(_manager: unknown, files: ResultFileEntity[]): Promise<void> {
    this.added.push(files);
    return Promise.resolve();
  }
  storedCounts = 0;
  storedTotals(): Promise<{ files: number; bytes: number }> {
    this.storedCounts++;
    return Promise.resolve({ files: this.stored > 0 ? 1 : 0, bytes: this.stored });
  }
  pendingCount(): Promise<number> {
    return Promise.resolve(0);
  }
}

/** An upstream answering each path as told. */
function upstream(routes: Record<string, { status: number; type?: string; body?: Buffer; noLength?: boolean }>) {
  const server: Server = createServer((req, res) => {
    const route = routes[req.url ?? ''] ?? { status: 404 };
    const headers: Record<string, string | number> = {};
    if (route.type) headers['content-type'] = route.type;
    if (route.body && !route.noLength) headers['content-length'] = route.body.length;
    res.writeHead(route.status, headers);
    if (route.body && route.noLength) res.write(route.body);
    res.end(route.noLength ? undefined : route.body);
  });
  return new Promise<{ origin: string; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }),
    ),
  );
}

/** The downloads every keeper here makes, on the upstream floor's agents (closed once the tests are done). */
const upstreamFloor = createTestUpstream();
const downloads = new UpstreamResultDownloads(new FileDownloads(upstreamFloor.agents));
afterAll(() => upstreamFloor.close());

const keeperDir = tempDirs('keeper-');

function setup(env: Record<string, string> = {}) {
  const dir = keeperDir();
  const config = loadConfig({ RESULT_STORE_DIR: dir, RESULT_RETRY_BASE_MS: '1000', ...env });
  const files = new FakeFiles();
  const repo = files as unknown as ResultFilesRepository;
  const clock = new ManualClock();
  const storedTotals = new StoredTotals(repo, clock);
  const metrics = new ResultMetrics(new MetricsService(), repo, storedTotals);
  const store = new FsObjectStore(dir);
  const transactions = new FakeTransactionRunner();
  const keeper = new ResultKeeper(repo, store, metrics, clock, config, downloads, transactions, storedTotals);
  return { dir, files, keeper, metrics, store, transactions };
}

const file = (url: string, attempts = 1): ResultFileEntity =>
  Object.assign(new ResultFileEntity(), {
    id: 'task_1.v0',
    taskId: 'task_1',
    slot: 'v0',
    upstreamUrl: url,
    attempts,
    createdAt: Date.parse('2026-01-01T00:00:00Z'),
  });

describe('ResultKeeper.enqueue', () => {
  it("queues every file of a task's result in one insert, each due at once", async () => {
    const { files, keeper } = setup();
    const task = taskFactory.build({
      phase: 'succeeded',
      result: {
        videos: [{ url: 'https://cdn/v.mp4', watermarkUrl: 'https://cdn/w.mp4', coverUrl: 'https://cdn/c.png' }],
        voices: [],
      },
    });
    await keeper.enqueue(task, {} as EntityManager);
    expect(files.added).toHaveLength(1);
    expect(files.added[0].map((f) => [f.id, f.upstreamUrl, f.status])).toEqual([
      [`${task.id}.v0`, 'https://cdn/v.mp4', 'pending'],
      [`${task.id}.v0w`, 'https://cdn/w.mp4', 'pending'],
      [`${task.id}.v0c`, 'https://cdn/c.png', 'pending'],
    ]);
  });
});

describe('ResultKeeper.keep', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));
  const video = Buffer.from('not really a video, but bytes all the same');
  let up: { origin: string; close: () => void };
  beforeAll(async () => {
    up = await upstream({
      '/ok': { status: 200, type: 'video/mp4; charset=binary', body: video },
      '/chunked': { status: 200, type: 'video/mp4', body: Buffer.alloc(5000, 1), noLength: true },
      '/large': { status: 200, type: 'video/mp4', body: Buffer.alloc(SMALL_RESULT_BYTES + 1, 2) },
      '/html': { status: 200, type: 'text/html', body: Buffer.from('<html>') },
      '/expired': { status: 403, type: 'application/xml' },
      '/down': { status: 503 },
    });
  });
  afterAll(() => up.close());

  it("stores the file under a directory named by the task ID's last two characters, with its size, type and retention", async () => {
    const { dir, files, keeper } = setup({ RESULT_RETENTION_DAYS: '30' });
    await keeper.keep(file(`${up.origin}/ok`), 'w1');
    expect(files.settled).toEqual([
      expect.objectContaining({
        status: 'stored',
        storageKey: '_1/task_1.v0',
        sizeBytes: video.length,
        contentType: 'video/mp4',
        nextAttemptAt: null,
        expiresAt: Date.parse('2026-01-31T00:00:00Z'),
      }),
    ]);
    expect(readFileSync(join(dir, '_1/task_1.v0'))).toEqual(video);
  });

  it('records the outcomes of several attempts in one transaction, kept and failed alike', async () => {
    const { files, keeper, transactions } = setup();
    const outcomes = await Promise.all([
      keeper.attempt(file(`${up.origin}/ok`)),
      keeper.attempt(file(`${up.origin}/down`)),
      keeper.attempt(file(`${up.origin}/html`)),
    ]);
    expect(files.settled).toEqual([]);
    await keeper.record(outcomes, 'w1');
    expect(transactions.runs).toBe(1);
    expect(files.settled.map((s) => s.status)).toEqual(['stored', 'pending', 'skipped']);
  });

  it('reads a file that declares a small size whole, and streams a larger or undeclared one', async () => {
    const { dir, files, keeper, store } = setup();
    const put = jest.spyOn(store, 'put');
    const putBytes = jest.spyOn(store, 'putBytes');
    await keeper.keep(file(`${up.origin}/ok`), 'w1');
    expect([putBytes.mock.calls.length, put.mock.calls.length]).toEqual([1, 0]);
    await keeper.keep(file(`${up.origin}/large`), 'w1');
    await keeper.keep(file(`${up.origin}/chunked`), 'w1');
    expect([putBytes.mock.calls.length, put.mock.calls.length]).toEqual([1, 2]);
    expect(files.settled.map((s) => [s.status, s.sizeBytes])).toEqual([
      ['stored', video.length],
      ['stored', SMALL_RESULT_BYTES + 1],
      ['stored', 5000],
    ]);
    expect(readFileSync(join(dir, '_1/task_1.v0')).length).toBe(5000);
  });

  it('retries a failed download with growing, jittered delays, and gives up after the last attempt', async () => {
    const { files, keeper } = setup({ RESULT_DOWNLOAD_MAX_ATTEMPTS: '3' });
    const now = new ManualClock().nowMs();
    await keeper.keep(file(`${up.origin}/down`, 1), 'w1');
    await keeper.keep(file(`${up.origin}/down`, 2), 'w1');
    await keeper.keep(file(`${up.origin}/down`, 3), 'w1');
    const [first, second, last] = files.settled;
    expect(first).toMatchObject({ status: 'pending', lastError: 'upstream answered HTTP 503' });
    expect(first.nextAttemptAt! - now).toBeGreaterThanOrEqual(500);
    expect(first.nextAttemptAt! - now).toBeLessThanOrEqual(1500);
    expect(second.nextAttemptAt! - now).toBeGreaterThanOrEqual(1000);
    expect(second.nextAttemptAt! - now).toBeLessThanOrEqual(3000);
    expect(last).toMatchObject({ status: 'failed', nextAttemptAt: null });
  });

  it('leaves at the upstream what is not media, too large, or already gone, without retrying', async () => {
    const { dir, files, keeper } = setup({ RESULT_MAX_BYTES: '4096' });
    await keeper.keep(file(`${up.origin}/html`), 'w1');
    await keeper.keep(file(`${up.origin}/chunked`), 'w1'); // no Content-Length: cut while streaming
    await keeper.keep(file(`${up.origin}/expired`), 'w1');
    expect(files.settled.map((s) => [s.status, s.nextAttemptAt])).toEqual([
      ['skipped', null],
      ['skipped', null],
      ['failed', null],
    ]);
    expect(files.settled[1].lastError).toMatch(/RESULT_MAX_BYTES/);
    expect(existsSync(join(dir, '_1/task_1.v0'))).toBe(false);
  });

  it('deletes the copy it made when its task was deleted meanwhile, and leaves one whose lease another instance took over', async () => {
    const { dir, files, keeper } = setup();
    files.leaseHeld = false;
    files.row = { status: 'removed' };
    await keeper.keep(file(`${up.origin}/ok`), 'w1');
    expect(existsSync(join(dir, '_1/task_1.v0'))).toBe(false);
    files.row = { status: 'pending', leaseOwner: 'w2' };
    await keeper.keep(file(`${up.origin}/ok`), 'w1');
    expect(readFileSync(join(dir, '_1/task_1.v0'))).toEqual(video);
  });

  it('keeps nothing new once the store is full', async () => {
    const { files, keeper } = setup({ RESULT_STORE_MAX_BYTES: '1000' });
    files.stored = 990;
    await keeper.keep(file(`${up.origin}/ok`), 'w1');
    expect(files.settled[0]).toMatchObject({ status: 'skipped', lastError: expect.stringMatching(/full/) });
    expect(keeper.storeFullSince).not.toBeNull();
  });

  it('counts the store once for a burst of downloads, adding what it kept, so the burst stops at the cap', async () => {
    const { files, keeper } = setup({ RESULT_STORE_MAX_BYTES: String(video.length * 2 + 10) });
    for (const id of ['a', 'b', 'c']) await keeper.keep({ ...file(`${up.origin}/ok`), id } as ResultFileEntity, 'w1');
    expect(files.settled.map((s) => s.status)).toEqual(['stored', 'stored', 'skipped']);
    expect(files.settled[2].lastError).toMatch(/full/);
    expect(files.storedCounts).toBe(1);
  });
});

describe('ResultKeeper.discard', () => {
  it("deletes from the store the kept copies of a deleted task's files, and nothing else", async () => {
    const { dir, files, keeper, store } = setup();
    await store.putBytes('_1/task_1.v0', Buffer.from('video'), 'video/mp4');
    await store.putBytes('_1/task_1.v0c', Buffer.from('cover'), 'image/png');
    await store.putBytes('_2/task_2.v0', Buffer.from('another task'), 'video/mp4');
    // The rows discardForTask changed: two kept copies and a download that was still queued.
    files.discarded = [
      { id: 'task_1.v0', storageKey: '_1/task_1.v0' },
      { id: 'task_1.v0c', storageKey: '_1/task_1.v0c' },
      { id: 'task_1.v0w', storageKey: null },
    ];
    await keeper.discard('task_1');
    expect(existsSync(join(dir, '_1/task_1.v0'))).toBe(false);
    expect(existsSync(join(dir, '_1/task_1.v0c'))).toBe(false);
    expect(readFileSync(join(dir, '_2/task_2.v0')).toString()).toBe('another task');
  });
});
