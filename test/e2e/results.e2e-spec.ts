import { DataSource } from 'typeorm';
import { ResultFileEntity } from '../../src/core/result-keeping/result-file.entity';
import { ResultFilesRepository } from '../../src/core/result-keeping/result-files.repository';
import { ResultLinks } from '../../src/core/result-keeping/result-links';
import { ResultRetentionSweeper } from '../../src/core/result-keeping/result-retention.sweeper';
import { TasksRepository } from '../../src/core/tasks/tasks.repository';
import { SIM_ASSETS } from '../../src/simulator/assets';
import { startSimulator } from '../../src/simulator/simulator';
import { TestAccount } from '../support/gateway-harness';
import { GATEWAY_RESULT_URL, SAMPLE_MP4, getResult, resultPath } from '../support/results';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';

const AX_CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const VD_CREATE = '/vd/ent/v2/reference2video';
/** The simulator's result links expire this soon, so the tests can outlive them. */
const SIM_TTL_MS = 2500;

const axBody = (prompt = 'Image 1 walks') => ({
  model: 'wx2.7-r2v',
  input: { prompt, media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
  parameters: { resolution: '720P', duration: 5 },
});

async function finishedAxTask(gw: SimulatedGateway, acct: TestAccount): Promise<{ id: string; url: string }> {
  const res = await gw
    .http()
    .post(AX_CREATE)
    .set(...bearer(acct))
    .send(axBody())
    .expect(200);
  const id = res.body.output.task_id as string;
  const done = await eventually(async () => {
    const q = await gw
      .http()
      .get(`/ax/api/v1/tasks/${id}`)
      .set(...bearer(acct))
      .expect(200);
    return q.body.output.task_status === 'SUCCEEDED' ? q.body : null;
  });
  return { id, url: done.output.video_url as string };
}

/** The upstream's own link for a task's video, from the record (clients never see it). */
async function upstreamUrl(gw: SimulatedGateway, taskId: string): Promise<string> {
  return (await gw.app.get(TasksRepository).findById(taskId))!.result!.videos[0].url;
}

const untilStored = (gw: SimulatedGateway, taskId: string) =>
  eventually(async () => {
    const view = await gw.admin.get(`/admin/v1/tasks/${taskId}/results`).expect(200);
    return view.body.files.every((f: { status: string }) => f.status === 'stored') ? view.body : null;
  }, 8000);

describe('kept results', () => {
  let gw: SimulatedGateway;
  let acct: TestAccount;

  beforeAll(async () => {
    const sim = await startSimulator({ taskMs: 100, resultTtlMs: SIM_TTL_MS });
    gw = await startSimulatedGateway({ sim });
    acct = await gw.admin.account({ models: ['wx2.7-r2v', 'vdq3'] });
  });
  afterAll(async () => {
    await gw.close();
    await gw.sim.close();
  });

  it('serves a result after the upstream copy has expired, byte for byte as the first fetch', async () => {
    const { id, url } = await finishedAxTask(gw, acct);
    expect(url).toMatch(GATEWAY_RESULT_URL);
    const upstream = await upstreamUrl(gw, id);
    // Neither the upstream's host nor its task ID is in the URL a client gets.
    expect(url).not.toContain(new URL(upstream).host);
    expect(Buffer.from(resultPath(url).split('/')[2].split('.')[0], 'base64url').toString()).not.toMatch(
      /[0-9a-f-]{36}/,
    );

    const first = await getResult(gw.http, url).expect(200);
    expect(Buffer.compare(first.body as Buffer, SAMPLE_MP4)).toBe(0);

    const view = await untilStored(gw, id);
    expect(view.files).toEqual([
      expect.objectContaining({
        slot: 'v0',
        status: 'stored',
        size_bytes: SAMPLE_MP4.length,
        content_type: 'video/mp4',
      }),
    ]);
    // The upstream's link runs out (403, as the vendors' do) ...
    await eventually(async () => (await fetch(upstream)).status === 403, SIM_TTL_MS + 3000, 200);
    // ... and the same gateway URL still serves the same bytes.
    const later = await getResult(gw.http, url).expect(200);
    expect(Buffer.compare(later.body as Buffer, first.body as Buffer)).toBe(0);
    expect(later.headers).toMatchObject({
      'content-type': 'video/mp4',
      'accept-ranges': 'bytes',
      'content-length': String(SAMPLE_MP4.length),
    });
    expect(later.headers.etag).toBeTruthy();
    expect(later.headers['last-modified']).toBeTruthy();
  });

  it('puts result URLs on the host the client called when PUBLIC_BASE_URL is unset', async () => {
    const { id } = await finishedAxTask(gw, acct);
    const query = (host: string) =>
      gw
        .http()
        .get(`/ax/api/v1/tasks/${id}`)
        .set(...bearer(acct))
        .set('Host', host)
        .expect(200);
    const onHost = (await query('videos.example.test:8443')).body.output.video_url as string;
    expect(onHost).toMatch(/^http:\/\/videos\.example\.test:8443\/results\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    // The same signed path serves on whichever origin it is shown on.
    await getResult(gw.http, onHost).expect(200);
    // A Host that is not a plain host name is never copied into an answer: the fallback origin stays.
    const odd = (await query('under_score.example.test')).body.output.video_url as string;
    expect(odd).toMatch(/^http:\/\/localhost:\d+\/results\//);
  });

  it('answers Range with 206 or 416, and HEAD with the headers only', async () => {
    const { id, url } = await finishedAxTask(gw, acct);
    await untilStored(gw, id);
    const part = await getResult(gw.http, url, 'bytes=10-109').expect(206);
    expect(part.headers['content-range']).toBe(`bytes 10-109/${SAMPLE_MP4.length}`);
    expect(part.headers['content-length']).toBe('100');
    expect(Buffer.compare(part.body as Buffer, SAMPLE_MP4.subarray(10, 110))).toBe(0);
    const tail = await getResult(gw.http, url, 'bytes=-16').expect(206);
    expect(Buffer.compare(tail.body as Buffer, SAMPLE_MP4.subarray(SAMPLE_MP4.length - 16))).toBe(0);
    const beyond = await getResult(gw.http, url, `bytes=${SAMPLE_MP4.length + 10}-`).expect(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${SAMPLE_MP4.length}`);
    const head = await gw.http().head(resultPath(url)).expect(200);
    expect(head.headers['content-length']).toBe(String(SAMPLE_MP4.length));
    expect(head.headers['content-type']).toBe('video/mp4');
    expect(head.body).toEqual({});
  });

  it('refuses a tampered or an expired signature with 403, and a removed copy with 404', async () => {
    const { id, url } = await finishedAxTask(gw, acct);
    await untilStored(gw, id);
    const [payload, signature] = resultPath(url).split('/')[2].split('.');
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const tampered = await gw.http().get(`/results/${payload}.${flipped}`).expect(403);
    expect(tampered.body.error).toMatchObject({ code: 'permission_denied' });
    // Another task's ID under this signature.
    const forged = Buffer.from(`task_other~v0~${Math.floor(Date.now() / 1000) + 60}`).toString('base64url');
    await gw.http().get(`/results/${forged}.${signature}`).expect(403);
    const links = gw.app.get(ResultLinks);
    const expired = links.token({ taskId: id, slot: 'v0', expiresAt: Math.floor(Date.now() / 1000) - 1 });
    const late = await gw.http().get(`/results/${expired}`).expect(403);
    expect(late.body.error.message).toMatch(/expired/);

    // Retention over: the sweeper removes the copy and the URL answers 404.
    const files = gw.app.get(ResultFilesRepository);
    const [file] = await files.forTask(id);
    await gw.app
      .get(DataSource)
      .getRepository(ResultFileEntity)
      .update({ id: file.id }, { expiresAt: Date.now() - 1 });
    expect(await gw.app.get(ResultRetentionSweeper).runCycle()).toBeGreaterThanOrEqual(1);
    const gone = await gw.http().get(resultPath(url)).expect(404);
    expect(gone.body.error).toMatchObject({ code: 'not_found' });
    expect((await gw.admin.get(`/admin/v1/tasks/${id}/results`).expect(200)).body.files[0].status).toBe('removed');
  });

  it('keeps every file of a vd creation (video, cover and watermarked copy)', async () => {
    const res = await gw
      .http()
      .post(VD_CREATE)
      .set(...bearer(acct))
      .send({
        model: 'vdq3',
        subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
        prompt: '@cat naps',
      })
      .expect(200);
    const id = res.body.task_id as string;
    const done = await eventually(async () => {
      const q = await gw
        .http()
        .get(`/vd/ent/v2/tasks/${id}/creations`)
        .set(...bearer(acct))
        .expect(200);
      return q.body.state === 'success' ? q.body : null;
    });
    const view = await untilStored(gw, id);
    expect(view.files.map((f: { slot: string }) => f.slot).sort()).toEqual(['v0', 'v0c', 'v0w']);
    const cover = await getResult(gw.http, done.creations[0].cover_url).expect(200);
    expect(cover.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(cover.body as Buffer, SIM_ASSETS.get('/assets/sample.png')!.bytes)).toBe(0);
    for (const field of ['url', 'watermarked_url']) {
      expect(done.creations[0][field]).toMatch(GATEWAY_RESULT_URL);
      const bytes = await getResult(gw.http, done.creations[0][field]).expect(200);
      expect(Buffer.compare(bytes.body as Buffer, SAMPLE_MP4)).toBe(0);
    }
  });
});

describe('session previews', () => {
  let gw: SimulatedGateway;
  let acct: TestAccount;

  beforeAll(async () => {
    const sim = await startSimulator({ taskMs: 100, resultTtlMs: SIM_TTL_MS });
    gw = await startSimulatedGateway({ sim });
    acct = await gw.admin.account({ models: ['kl-v1'] });
  });
  afterAll(async () => {
    await gw.close();
    await gw.sim.close();
  });

  const post = (path: string, body: object) =>
    gw
      .http()
      .post(`/kl/v1/videos/multi-elements${path}`)
      .set(...bearer(acct))
      .send(body);

  it('are passed through under gateway URLs that carry neither the upstream host nor its session ID', async () => {
    const init = (await post('/init-selection', { video_url: 'https://example.com/clip.mp4' }).expect(200)).body.data;
    await post('/add-selection', { session_id: init.session_id, frame_index: 0, points: [{ x: 0.5, y: 0.5 }] }).expect(
      200,
    );
    const preview = (await post('/preview-selection', { session_id: init.session_id }).expect(200)).body.data;
    const simHost = new URL(gw.sim.endpoints.kl.baseUrl).host;
    for (const url of [
      init.normalized_video,
      preview.res.video,
      preview.res.video_cover,
      preview.res.tracking_output,
    ]) {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/results\/p\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      expect(url).not.toContain(simHost);
    }
    // The upstream's session ID is the simulator's: it shows in none of the answers.
    const upstreamSession = (
      gw.sim.requests.find((r) => r.path.endsWith('preview-selection'))?.body as {
        session_id: string;
      }
    ).session_id;
    expect(JSON.stringify([init, preview])).not.toContain(upstreamSession);

    const video = await getResult(gw.http, preview.res.video).expect(200);
    expect(Buffer.compare(video.body as Buffer, SAMPLE_MP4)).toBe(0);
    const cover = await getResult(gw.http, preview.res.video_cover, 'bytes=0-7').expect(206);
    expect(Buffer.compare(cover.body as Buffer, SIM_ASSETS.get('/assets/sample.png')!.bytes.subarray(0, 8))).toBe(0);
    // A changed sealed URL is refused.
    const path = resultPath(preview.res.video);
    await gw
      .http()
      .get(`${path.slice(0, 20)}${path[20] === 'A' ? 'B' : 'A'}${path.slice(21)}`)
      .expect(403);
    // Not kept: once the upstream's link expires, the gateway's answers 410.
    await new Promise((r) => setTimeout(r, SIM_TTL_MS + 200));
    await gw.http().get(resultPath(preview.res.video)).expect(410);
  });
});

describe('results not kept', () => {
  let gw: SimulatedGateway;
  let acct: TestAccount;

  beforeAll(async () => {
    const sim = await startSimulator({ taskMs: 100, resultTtlMs: SIM_TTL_MS });
    // Every file is above the cap: nothing is kept, the URL passes the upstream's copy through.
    gw = await startSimulatedGateway({ sim, env: { RESULT_MAX_BYTES: '100' } });
    acct = await gw.admin.account({ models: ['wx2.7-r2v'] });
  });
  afterAll(async () => {
    await gw.close();
    await gw.sim.close();
  });

  it('streams from the upstream before a copy exists, with Range, and answers 410 once the upstream copy is gone', async () => {
    const { id, url } = await finishedAxTask(gw, acct);
    const view = await eventually(async () => {
      const v = await gw.admin.get(`/admin/v1/tasks/${id}/results`).expect(200);
      return v.body.files[0]?.status === 'skipped' ? v.body : null;
    });
    expect(view.files[0].last_error).toMatch(/RESULT_MAX_BYTES/);
    const whole = await getResult(gw.http, url).expect(200);
    expect(Buffer.compare(whole.body as Buffer, SAMPLE_MP4)).toBe(0);
    const part = await getResult(gw.http, url, 'bytes=0-9').expect(206);
    expect(Buffer.compare(part.body as Buffer, SAMPLE_MP4.subarray(0, 10))).toBe(0);

    const upstream = await upstreamUrl(gw, id);
    await eventually(async () => (await fetch(upstream)).status === 403, SIM_TTL_MS + 3000, 200);
    const gone = await gw.http().get(resultPath(url)).expect(410);
    expect(gone.body.error).toMatchObject({ message: expect.stringMatching(/expired at the upstream/) });
  });
});

describe('result store capacity', () => {
  let gw: SimulatedGateway;
  let acct: TestAccount;

  beforeAll(async () => {
    const sim = await startSimulator({ taskMs: 100 });
    // Room for one sample video, not two.
    gw = await startSimulatedGateway({ sim, env: { RESULT_STORE_MAX_BYTES: String(SAMPLE_MP4.length + 10) } });
    acct = await gw.admin.account({ models: ['wx2.7-r2v'] });
  });
  afterAll(async () => {
    await gw.close();
    await gw.sim.close();
  });

  it('keeps no new result once full, evicts nothing, and says so in /readyz and /metrics', async () => {
    const first = await finishedAxTask(gw, acct);
    await untilStored(gw, first.id);
    const second = await finishedAxTask(gw, acct);
    const view = await eventually(async () => {
      const v = await gw.admin.get(`/admin/v1/tasks/${second.id}/results`).expect(200);
      return v.body.files[0]?.status === 'skipped' ? v.body : null;
    });
    expect(view.files[0].last_error).toMatch(/full/);
    // The first copy stays; the second URL still serves the upstream's copy while it lasts.
    expect(Buffer.compare((await getResult(gw.http, first.url).expect(200)).body as Buffer, SAMPLE_MP4)).toBe(0);
    expect(Buffer.compare((await getResult(gw.http, second.url).expect(200)).body as Buffer, SAMPLE_MP4)).toBe(0);
    expect((await gw.admin.get(`/admin/v1/tasks/${first.id}/results`).expect(200)).body.files[0].status).toBe('stored');

    const ready = await eventually(async () => {
      const r = await gw.http().get('/readyz').expect(200);
      return r.body.details?.results?.full === true ? r.body : null;
    }, 8000);
    expect(ready.details.results).toMatchObject({
      store: 'fs',
      stored_files: 1,
      stored_bytes: SAMPLE_MP4.length,
      max_bytes: SAMPLE_MP4.length + 10,
    });
    const metrics = (await gw.http().get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/gateway_results_not_kept_total\{reason="store_full"\} 1/);
    expect(metrics).toMatch(new RegExp(`gateway_results_kept_bytes_total ${SAMPLE_MP4.length}\\b`));
    expect(metrics).toMatch(/gateway_results_pending 0/);
    expect(metrics).toMatch(new RegExp(`gateway_results_stored_bytes ${SAMPLE_MP4.length}\\b`));
  });
});
