import express from 'express';
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import request from 'supertest';
import { resultFileFactory, succeededTask } from '../../test/factories';
import { FakeTasksRepository, InMemoryResultFiles } from '../../test/fakes';
import { tempDirs } from '../../test/support/temp-dirs';
import { createTestUpstream } from '../../test/upstream/test-upstream';
import { UpstreamResultDownloads } from '../bootstrap/upstream-wiring.module';
import { RenewableLinks } from '../core/result-keeping/renewable-links';
import { ResultFileEntity } from '../core/result-keeping/result-file.entity';
import { ResultLinks } from '../core/result-keeping/result-links';
import { resultFileId, videoSlot } from '../core/result-keeping/result-slots';
import { loadConfig } from '../platform/config/app-config';
import { GatewayError } from '../platform/errors';
import { FsObjectStore } from '../platform/storage/fs-object-store';
import { FileDownloads } from '../upstream/http/file-downloads';
import { ResultServing } from './result-serving.service';

const BYTES = Buffer.from('0123456789abcdefghij');
const NOW_S = 1_800_000_000;

/** An upstream answering each path as told, and counting what it served. */
async function startUpstream(routes: Record<string, number>) {
  const server: Server = createServer((req, res) => {
    const status = routes[req.url ?? ''] ?? 404;
    res.writeHead(status, { 'content-type': 'video/mp4', 'content-length': status === 200 ? 6 : 0 });
    res.end(status === 200 ? 'UPSTRM' : undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

const upstreamFloor = createTestUpstream();
const downloads = new UpstreamResultDownloads(new FileDownloads(upstreamFloor.agents));

const servingDir = tempDirs('serving-');

function setup() {
  const links = new ResultLinks({
    origin: 'http://gw.test',
    secrets: ['s3cret'],
    ttlSeconds: 3600,
    nowSeconds: () => NOW_S,
  });
  const files = new InMemoryResultFiles();
  const tasks = new FakeTasksRepository();
  const store = new FsObjectStore(servingDir());
  const renewable = new RenewableLinks();
  const serving = new ResultServing(links, files, tasks, store, downloads, renewable, loadConfig({}));
  // The route as the controller mounts it, with the gateway's status for its errors.
  const app = express();
  app.get('/results/:token', (req, res, next) => void serving.serve(req.params.token, req, res).catch(next));
  app.head('/results/:token', (req, res, next) => void serving.serve(req.params.token, req, res).catch(next));
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const gateway = error instanceof GatewayError ? error : null;
    res.status(gateway?.status ?? 500).json({ code: gateway?.code, message: (error as Error).message });
  });
  const path = (taskId: string, expiresAt = NOW_S + 60) =>
    `/results/${links.token({ taskId, slot: videoSlot(0), expiresAt })}`;
  /** The row of task_1's first video. */
  const file = (overrides: Partial<ResultFileEntity>) =>
    files.rows.set(
      resultFileId('task_1', videoSlot(0)),
      resultFileFactory.build({ id: resultFileId('task_1', videoSlot(0)), taskId: 'task_1', ...overrides }),
    );
  return { app, links, files, file, tasks, store, renewable, path };
}

describe('ResultServing', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    up = await startUpstream({ '/ok.mp4': 200, '/expired.mp4': 403, '/down.mp4': 502 });
  });
  afterAll(() => {
    up.close();
    upstreamFloor.close();
  });

  it('serves the kept copy, with Range, ETag and a cache lifetime', async () => {
    const f = setup();
    await f.store.putBytes('ab/task_1.v0', BYTES, 'video/mp4');
    f.file({ status: 'stored', storageKey: 'ab/task_1.v0', contentType: 'video/mp4' });
    const whole = await request(f.app).get(f.path('task_1')).buffer(true);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['cache-control']).toBe('private, max-age=3600');
    expect(whole.headers.etag).toBeDefined();
    expect(Buffer.from(whole.body as Buffer)).toEqual(BYTES);
    const part = await request(f.app).get(f.path('task_1')).set('Range', 'bytes=2-5').buffer(true);
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 2-5/${BYTES.length}`);
    expect(Buffer.from(part.body as Buffer).toString()).toBe('2345');
  });

  it('refuses a bad signature and an expired link with 403, saying which', async () => {
    const f = setup();
    const good = f.path('task_1');
    const forged = await request(f.app).get(good.slice(0, -2) + (good.endsWith('A') ? 'BB' : 'AA'));
    expect(forged.status).toBe(403);
    expect(forged.body.message).toBe('The result URL is not valid.');
    const expired = await request(f.app).get(f.path('task_1', NOW_S - 1));
    expect([expired.status, expired.body.message]).toEqual([403, 'The result URL has expired.']);
  });

  it('streams the upstream’s copy while the file is not kept yet', async () => {
    const f = setup();
    f.file({ upstreamUrl: `${up.origin}/ok.mp4` });
    const res = await request(f.app).get(f.path('task_1')).buffer(true);
    expect(res.status).toBe(200);
    expect(Buffer.from(res.body as Buffer).toString()).toBe('UPSTRM');
  });

  it('falls back to the upstream when the store lost the kept copy', async () => {
    const f = setup();
    f.file({ status: 'stored', storageKey: 'ab/missing', upstreamUrl: `${up.origin}/ok.mp4` });
    const res = await request(f.app).get(f.path('task_1')).buffer(true);
    expect([res.status, Buffer.from(res.body as Buffer).toString()]).toEqual([200, 'UPSTRM']);
  });

  it('a task that ended before keeping began is served from its result; once deleted, 404', async () => {
    const f = setup();
    const task = succeededTask({ id: 'task_1', result: { videos: [{ url: `${up.origin}/ok.mp4` }], voices: [] } });
    f.tasks.put(task);
    expect((await request(f.app).get(f.path('task_1'))).status).toBe(200);
    f.tasks.put({ ...task, deletedAt: 1 });
    expect((await request(f.app).get(f.path('task_1'))).status).toBe(404);
  });

  it('404 once retention removed the copy, and for a task with no such file', async () => {
    const f = setup();
    f.file({ status: 'removed', upstreamUrl: `${up.origin}/ok.mp4` });
    expect((await request(f.app).get(f.path('task_1'))).status).toBe(404);
    expect((await request(f.app).get(f.path('task_unknown'))).status).toBe(404);
  });

  it.each([
    ['expired at the upstream', '/expired.mp4', 410],
    ['the upstream failing', '/down.mp4', 503],
  ])('answers a file not kept and %s (%s) with %i', async (_case, path, status) => {
    const f = setup();
    f.file({ upstreamUrl: `${up.origin}${path}` });
    expect((await request(f.app).get(f.path('task_1'))).status).toBe(status);
  });

  it('serves a renewable file at the link its source gives now; 404 when the source knows it no more', async () => {
    const f = setup();
    f.renewable.register('presets', async (key) => (key === 'known' ? `${up.origin}/ok.mp4` : undefined));
    const token = (key: string) => new URL(f.links.renewableUrl('presets', key)).pathname;
    expect((await request(f.app).get(token('known'))).status).toBe(200);
    expect((await request(f.app).get(token('gone'))).status).toBe(404);
  });
});
