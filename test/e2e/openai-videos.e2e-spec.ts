import { existsSync } from 'fs';
import { Server } from 'http';
import { join } from 'path';
import { AddressInfo } from 'net';
import OpenAI, {
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  toFile,
} from 'openai';
import { Webhook } from 'standardwebhooks';
import { CallbackReceiver, startCallbackReceiver } from '../support/callback-receiver';
import { TestAccount } from '../support/gateway-harness';
import { SAMPLE_MP4, getResult } from '../support/results';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';
import { png } from '../fixtures/media';
import { resultStorageKey } from '../../src/core/result-keeping/result-slots';

/** The official SDK, as a client of the gateway's `/v1` (requests over real HTTP). */
function sdk(
  baseURL: string,
  account: Pick<TestAccount, 'key'>,
  options: Partial<ConstructorParameters<typeof OpenAI>[0]> = {},
) {
  return new OpenAI({ apiKey: account.key, baseURL, maxRetries: 0, ...options });
}

const IMAGE = { image_url: 'https://example.com/cat.png' };

describe('OpenAI-compatible /v1/videos over families B and C, driven by the openai SDK', () => {
  let gw: SimulatedGateway;
  let baseURL: string;
  let acct: TestAccount;
  let client: OpenAI;

  beforeAll(async () => {
    gw = await startSimulatedGateway({ taskMs: 100 });
    const server = gw.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    acct = await gw.admin.account({ models: ['vdq3', 'wx2.7-r2v', 'wx2.6-r2v'] });
    client = sdk(baseURL, acct);
  });
  afterAll(() => gw.close());

  const untilDone = (id: string, c: OpenAI = client) =>
    eventually(async () => {
      const video = await c.videos.retrieve(id);
      return video.status === 'completed' || video.status === 'failed' ? video : null;
    }, 8000);

  it('vd: create as the SDK sends it (multipart), retrieve until completed, download the kept bytes, delete', async () => {
    const created = await client.videos.create({
      model: 'vdq3' as never,
      prompt: 'A cat plays in a sunny garden.',
      seconds: '8',
      size: '1280x720',
      input_reference: IMAGE,
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^task_/),
      object: 'video',
      model: 'vdq3',
      status: 'queued',
      progress: 0,
      seconds: '8',
      size: '1280x720',
      prompt: 'A cat plays in a sunny garden.',
      remixed_from_video_id: null,
      completed_at: null,
    });
    // What the family got: its own fields, mapped by the table.
    const sent = gw.sim.requests.filter((r) => r.family === 'vd' && r.method === 'POST').at(-1)?.body as Record<
      string,
      unknown
    >;
    expect(sent).toMatchObject({ images: [IMAGE.image_url], duration: 8, resolution: '720p', aspect_ratio: '16:9' });

    const done = await untilDone(created.id);
    expect(done).toMatchObject({ status: 'completed', progress: 100, completed_at: expect.any(Number) });
    // The same task under the family's own query route.
    const native = await gw
      .http()
      .get(`/vd/ent/v2/tasks/${created.id}/creations`)
      .set(...bearer(acct))
      .expect(200);
    expect(native.body).toMatchObject({ id: created.id, state: 'success' });

    // The kept copy: its expiry is the Video's expires_at, its bytes what downloadContent streams.
    const kept = await eventually(async () => {
      const video = await client.videos.retrieve(created.id);
      return video.expires_at !== null ? video : null;
    });
    expect(kept.expires_at).toBeGreaterThan(kept.created_at);
    const content = await client.videos.downloadContent(created.id);
    expect(Buffer.from(await content.arrayBuffer()).equals(SAMPLE_MP4)).toBe(true);
    const thumbnail = await client.videos.downloadContent(created.id, { variant: 'thumbnail' });
    expect(thumbnail.status).toBe(200);
    await expect(client.videos.downloadContent(created.id, { variant: 'spritesheet' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const range = await fetch(`${baseURL}/videos/${created.id}/content`, {
      headers: { authorization: `Bearer ${acct.key}`, range: 'bytes=0-9' },
    });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(SAMPLE_MP4.subarray(0, 10))).toBe(true);
    const outside = await fetch(`${baseURL}/videos/${created.id}/content`, {
      headers: { authorization: `Bearer ${acct.key}`, range: `bytes=${SAMPLE_MP4.length}-` },
    });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${SAMPLE_MP4.length}`);

    const keptFile = join(gw.config.RESULT_STORE_DIR, resultStorageKey(created.id, 'v0'));
    expect(existsSync(keptFile)).toBe(true);
    const resultUrl = native.body.creations[0].url as string;
    await getResult(() => gw.http(), resultUrl).expect(200);

    const deleted = await client.videos.delete(created.id);
    expect(deleted).toEqual({ id: created.id, object: 'video.deleted', deleted: true });
    await expect(client.videos.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
    const ids = [];
    for await (const video of client.videos.list({ limit: 100 })) ids.push(video.id);
    expect(ids).not.toContain(created.id);
    // Gone on every route: the family's own query, the result URL handed out before, a second delete.
    const nativeAfter = await gw
      .http()
      .get(`/vd/ent/v2/tasks/${created.id}/creations`)
      .set(...bearer(acct))
      .expect(404);
    expect(nativeAfter.body).toMatchObject({ reason: 'TaskNotFound', error: { code: 'not_found' } });
    await getResult(() => gw.http(), resultUrl).expect(404);
    await expect(client.videos.delete(created.id)).rejects.toBeInstanceOf(NotFoundError);
    // Its kept files are deleted; operators still see the task, marked deleted, with no result URL.
    expect(existsSync(keptFile)).toBe(false);
    const detail = await gw.admin.get(`/admin/v1/tasks/${created.id}`).expect(200);
    expect(detail.body).toMatchObject({ status: 'succeeded', deleted_at: expect.any(String), videos: [] });
    expect(detail.body.result_files.map((f: { status: string }) => f.status)).toEqual(
      detail.body.result_files.map(() => 'removed'),
    );
    expect(detail.body.timeline.map((e: { event: string }) => e.event)).toContain('deleted');
    // Money already settled stays as it was.
    const usage = await gw.admin.get(`/admin/v1/accounts/${acct.id}`).expect(200);
    expect(usage.body.balance).toBeLessThan(100_000_000);
  });

  it('ax: both protocols take the same size and seconds; an uploaded file becomes an inline image', async () => {
    const newer = await client.videos.create({
      model: 'wx2.7-r2v' as never,
      prompt: 'A dog runs.',
      seconds: '4',
      size: '1920x1080' as never,
      input_reference: IMAGE,
    });
    expect(newer).toMatchObject({ model: 'wx2.7-r2v', seconds: '4', size: '1920x1080', status: 'queued' });
    const newerSent = gw.sim.requests.filter((r) => r.family === 'ax' && r.method === 'POST').at(-1)?.body;
    expect(newerSent).toMatchObject({
      input: { prompt: 'A dog runs.', media: [{ type: 'reference_image', url: IMAGE.image_url }] },
      parameters: { resolution: '1080P', ratio: '16:9', duration: 4 },
    });

    const older = await client.videos.create({
      model: 'wx2.6-r2v' as never,
      prompt: 'character1 runs.',
      seconds: '8',
      size: '720x1280',
      input_reference: await toFile(png(640, 360), 'ref.png', { type: 'image/png' }),
    });
    expect(older).toMatchObject({ model: 'wx2.6-r2v', seconds: '8', size: '720x1280' });
    const olderSent = gw.sim.requests.filter((r) => r.family === 'ax' && r.method === 'POST').at(-1)?.body as {
      input: { reference_urls: string[] };
      parameters: Record<string, unknown>;
    };
    expect(olderSent.parameters).toMatchObject({ size: '720*1280', duration: 8 });
    expect(olderSent.input.reference_urls[0]).toMatch(/^data:image\/png;base64,/);

    // Native fields by their native names, checked by the family's rules.
    const withSeed = await client.videos.create({
      model: 'wx2.7-r2v' as never,
      prompt: 'A dog runs.',
      input_reference: IMAGE,
      parameters: { seed: 42, watermark: true },
    } as never);
    const seedSent = gw.sim.requests.filter((r) => r.family === 'ax' && r.method === 'POST').at(-1)?.body;
    expect(seedSent).toMatchObject({ parameters: { seed: 42, watermark: true } });
    await expect(
      client.videos.create({
        model: 'wx2.7-r2v' as never,
        prompt: 'A dog runs.',
        input_reference: IMAGE,
        parameters: { seed: -1 },
      } as never),
    ).rejects.toMatchObject({ status: 400, param: 'parameters.seed' });
    expect((await untilDone(withSeed.id)).status).toBe('completed');
    // A native task reads here too.
    const nativeTask = await gw
      .http()
      .post('/ax/api/v1/services/aigc/video-generation/video-synthesis')
      .set(...bearer(acct))
      .send({
        model: 'wx2.7-r2v',
        input: { prompt: 'native', media: [{ type: 'reference_image', url: IMAGE.image_url }] },
      })
      .expect(200);
    const read = await client.videos.retrieve(nativeTask.body.output.task_id);
    expect(read).toMatchObject({
      object: 'video',
      model: 'wx2.7-r2v',
      prompt: 'native',
      size: '1920x1080',
      seconds: '5',
    });
  });

  it('ax: a video deleted here is gone from the native query too, and its files are not kept after all', async () => {
    const video = await client.videos.create({
      model: 'wx2.7-r2v' as never,
      prompt: 'A dog runs.',
      input_reference: IMAGE,
    });
    const done = await untilDone(video.id);
    expect(done.status).toBe('completed');
    const nativeQuery = () =>
      gw
        .http()
        .get(`/ax/api/v1/tasks/${video.id}`)
        .set(...bearer(acct));
    const before = await nativeQuery().expect(200);
    expect(before.body.output).toMatchObject({ task_id: video.id, task_status: 'SUCCEEDED' });
    // Deleted at once: its downloads may still be queued or running.
    await client.videos.delete(video.id);
    const after = await nativeQuery().expect(404);
    expect(after.body).toMatchObject({ code: 'NotFound', error: { code: 'not_found' } });
    await getResult(() => gw.http(), before.body.output.video_url as string).expect(404);
    // However the downloads stood, every file is removed at once, and no copy is left once they have run their course.
    const files = await gw.admin.get(`/admin/v1/tasks/${video.id}/results`).expect(200);
    const slots = files.body.files.map((file: { slot: string }) => file.slot) as string[];
    expect(slots.length).toBeGreaterThan(0);
    expect(files.body.files.map((file: { status: string }) => file.status)).toEqual(slots.map(() => 'removed'));
    const kept = () =>
      slots.filter((slot) => existsSync(join(gw.config.RESULT_STORE_DIR, resultStorageKey(video.id, slot))));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await eventually(async () => (kept().length === 0 ? true : null));
  });

  it("lists only the caller's videos with auto-pagination over 25", async () => {
    const other = await gw.admin.account({ models: ['vdq3'] });
    const mine = await gw.admin.account({ models: ['vdq3'] });
    const mineClient = sdk(baseURL, mine);
    await sdk(baseURL, other).videos.create({ model: 'vdq3' as never, prompt: 'not yours', input_reference: IMAGE });
    const created: string[] = [];
    for (let i = 0; i < 25; i++) {
      const video = await mineClient.videos.create({
        model: 'vdq3' as never,
        prompt: `clip ${i}`,
        input_reference: IMAGE,
      });
      created.push(video.id);
    }
    const seen: string[] = [];
    for await (const video of mineClient.videos.list({ limit: 10 })) seen.push(video.id);
    expect(seen).toEqual([...created].reverse());
    const ascending: string[] = [];
    for await (const video of mineClient.videos.list({ limit: 7, order: 'asc' })) ascending.push(video.id);
    expect(ascending).toEqual(created);
    const page = await mineClient.videos.list({ limit: 10 });
    expect(page.data).toHaveLength(10);
    expect(page.has_more).toBe(true);
  });

  describe("the SDK's error classes", () => {
    it('AuthenticationError for a bad key', async () => {
      await expect(sdk(baseURL, { key: 'sk-wrong' }).videos.retrieve('task_x')).rejects.toBeInstanceOf(
        AuthenticationError,
      );
    });

    it('PermissionDeniedError for a model not granted', async () => {
      const narrow = await gw.admin.account({ models: ['vdq3', 'vdq2'] });
      const key = await gw.admin.post(`/admin/v1/accounts/${narrow.id}/keys`, { name: 'vdq2 only', models: ['vdq2'] });
      const error = await sdk(baseURL, { key: key.body.key as string })
        .videos.create({ model: 'vdq3' as never, prompt: 'x', input_reference: IMAGE })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PermissionDeniedError);
      expect(error).toMatchObject({ param: 'model' });
    });

    it("NotFoundError for another account's video", async () => {
      const video = await client.videos.create({ model: 'vdq3' as never, prompt: 'mine', input_reference: IMAGE });
      const stranger = await gw.admin.account({ models: ['vdq3'] });
      await expect(sdk(baseURL, stranger).videos.retrieve(video.id)).rejects.toBeInstanceOf(NotFoundError);
      await expect(sdk(baseURL, stranger).videos.delete(video.id)).rejects.toBeInstanceOf(NotFoundError);
      await expect(sdk(baseURL, stranger).videos.downloadContent(video.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('BadRequestError with param for a bad size, bad seconds, an unsupported duration and a missing reference', async () => {
      const create = (body: Record<string, unknown>) =>
        client.videos
          .create({ model: 'vdq3', prompt: 'x', input_reference: IMAGE, ...body } as never)
          .catch((e: unknown) => e);
      const size = await create({ size: '1024x1792' });
      expect(size).toBeInstanceOf(BadRequestError);
      expect(size).toMatchObject({ status: 400, param: 'size', type: 'invalid_request_error' });
      expect(await create({ seconds: 'four' })).toMatchObject({ status: 400, param: 'seconds' });
      // The family's own range (vdq3: 3 to 16 seconds), named by the field the caller sent.
      expect(await create({ seconds: '20' })).toMatchObject({ status: 400, param: 'seconds' });
      expect(await create({ input_reference: undefined })).toMatchObject({ status: 400, param: 'input_reference' });
      expect(await create({ input_reference: { file_id: 'file_1' } })).toMatchObject({
        status: 400,
        param: 'input_reference.file_id',
      });
      // A face field and its native field at once.
      expect(await create({ seconds: '8', duration: 8 })).toMatchObject({ status: 400, param: 'duration' });
    });

    it('RateLimitError over the limit, with retry-after', async () => {
      const limited = await gw.admin.account({ models: ['vdq3'], rate_limit_rpm: 1 });
      const c = sdk(baseURL, limited);
      await c.videos.list();
      const error = (await c.videos.list().catch((e: unknown) => e)) as RateLimitError;
      expect(error).toBeInstanceOf(RateLimitError);
      expect(Number(error.headers?.get('retry-after'))).toBeGreaterThan(0);
      expect(error.headers?.get('x-request-id')).toBeTruthy();
    });

    it('the SDK retrying a refused create (5xx, 429) never makes a second task', async () => {
      const account = await gw.admin.account({ models: ['vdq3'], max_concurrent_tasks: 1 });
      const attempts: number[] = [];
      // The gateway's retry-after is seconds long; without it the SDK retries after half a second.
      const quickRetries: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        // The SDK also fetches a `data:` URL once, to learn how this runtime builds forms.
        if (String(input).startsWith(baseURL)) attempts.push(res.status);
        const headers = new Headers(res.headers);
        headers.delete('retry-after');
        return new Response(res.body, { status: res.status, headers });
      };
      const c = sdk(baseURL, account, { maxRetries: 2, fetch: quickRetries });
      const refused = await c.videos
        .create({ model: 'vdq3' as never, prompt: 'sim:error500 upstream down', input_reference: IMAGE })
        .catch((e: unknown) => e);
      expect((refused as { status: number }).status).toBeGreaterThanOrEqual(500);
      expect(attempts).toHaveLength(3);
      const first = await c.videos.create({ model: 'vdq3' as never, prompt: 'sim:slow one', input_reference: IMAGE });
      attempts.length = 0;
      // Refused while the first runs; the SDK retries, and a retry may land once the slot is free.
      await c.videos.create({ model: 'vdq3' as never, prompt: 'two', input_reference: IMAGE }).catch(() => undefined);
      expect(attempts[0]).toBe(429);
      expect(attempts.filter((status) => status !== 429 && status !== 200)).toEqual([]);
      // One task per accepted attempt, none for a refused one (the 503s above made none either).
      const accepted = attempts.filter((status) => status === 200).length;
      const listed = await c.videos.list();
      expect(listed.data).toHaveLength(1 + accepted);
      expect(listed.data.at(-1)?.id).toBe(first.id);
    });

    it('remix and the other newer routes are a clear 400 in the error shape', async () => {
      const video = await client.videos.create({ model: 'vdq3' as never, prompt: 'base', input_reference: IMAGE });
      await expect(client.videos.remix(video.id, { prompt: 'again' })).rejects.toBeInstanceOf(BadRequestError);
      const res = await gw
        .http()
        .post(`/v1/videos/${video.id}/remix`)
        .set(...bearer(acct))
        .send({ prompt: 'x' });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request' });
      expect(res.headers['x-request-id']).toBeTruthy();
    });
  });

  it('multipart: unread without a key, capped in size, images only', async () => {
    const anonymous = await gw.http().post('/v1/videos').field('model', 'vdq3').field('prompt', 'x');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toMatchObject({ type: 'authentication_error' });
    const upload = (bytes: Buffer, type: string) =>
      gw
        .http()
        .post('/v1/videos')
        .set(...bearer(acct))
        .field('model', 'vdq3')
        .field('prompt', 'x')
        .attach('input_reference', bytes, { filename: 'ref', contentType: type });
    const tooLarge = await upload(Buffer.alloc(21 * 1024 * 1024), 'image/png');
    expect(tooLarge.status).toBe(413);
    expect(Object.keys(tooLarge.body)).toEqual(['error']);
    const notImage = await upload(Buffer.from('hello'), 'text/plain');
    expect(notImage.status).toBe(400);
    expect(notImage.body.error).toMatchObject({ param: 'input_reference' });
    // An image type whose bytes are no image: the family's check, told in the face's words.
    const unreadable = await upload(Buffer.alloc(2048, 7), 'image/png');
    expect(unreadable.status).toBe(400);
    expect(unreadable.body.error).toMatchObject({
      param: 'input_reference',
      message: 'input_reference is not a readable image.',
    });
    const second = await gw
      .http()
      .post('/v1/videos')
      .set(...bearer(acct))
      .field('model', 'vdq3')
      .attach('other', Buffer.from('x'), 'x.png');
    expect(second.status).toBe(400);
    expect(second.body.error).toMatchObject({
      param: 'other',
      message: 'Only input_reference may be a file; got a file in other.',
    });
  });

  it('multipart: an Idempotency-Key sent again with another uploaded image is 422, the same image a replay', async () => {
    const upload = (bytes: Buffer, type = 'image/png') =>
      gw
        .http()
        .post('/v1/videos')
        .set(...bearer(acct))
        .set('Idempotency-Key', 'mp-upload')
        .field('model', 'vdq3')
        .field('prompt', 'one image')
        .attach('input_reference', bytes, { filename: 'ref.png', contentType: type });
    const first = await upload(png(640, 360));
    expect(first.status).toBe(200);
    const same = await upload(png(640, 360));
    expect(same.status).toBe(200);
    expect(same.headers['idempotent-replayed']).toBe('true');
    expect(same.body.id).toBe(first.body.id);
    for (const [bytes, type] of [
      [png(640, 480), 'image/png'],
      [png(640, 360), 'image/jpeg'],
    ] as const) {
      const other = await upload(bytes, type);
      expect(other.status).toBe(422);
      expect(other.body.error).toMatchObject({ code: 'idempotency_mismatch', param: 'Idempotency-Key' });
    }
  });

  it('/docs documents the routes and the mapping', async () => {
    const doc = (await gw.http().get('/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/videos', '/v1/videos/{video_id}', '/v1/videos/{video_id}/content']),
    );
    expect(Object.keys(doc.paths['/v1/videos'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(JSON.stringify(doc.paths['/v1/videos'].post)).toContain('multipart/form-data');
    // Every status the content route answers is documented, 416 for a range outside the file too.
    const content = doc.paths['/v1/videos/{video_id}/content'].get as { responses: Record<string, unknown> };
    expect(Object.keys(content.responses)).toEqual(expect.arrayContaining(['200', '206', '404', '410', '416']));
  });

  describe('JSON bodies sent with fetch', () => {
    const post = (body: unknown, key = acct.key) =>
      fetch(`${baseURL}/videos`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('creates from JSON with seconds as a number and answers errors in the OpenAI shape only', async () => {
      const res = await post({ model: 'vdq3', prompt: 'json', seconds: 5, size: '720x720', input_reference: IMAGE });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ object: 'video', seconds: '5', size: '720x720', status: 'queued' });
      const bad = await post({ model: 'vdq3', prompt: 'json', size: '2x2', input_reference: IMAGE });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('x-request-id')).toBeTruthy();
      const body = (await bad.json()) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error).toMatchObject({ param: 'size', type: 'invalid_request_error', code: 'invalid_request' });
      const unknownModel = await post({ model: 'nope', prompt: 'x' });
      expect(unknownModel.status).toBe(404);
    });

    it('refuses an input_reference URL at a loopback, private, link-local or metadata address, for both families', async () => {
      const posts = () => gw.sim.requests.filter((r) => r.method === 'POST' && r.family !== 'kl').length;
      const before = posts();
      for (const model of ['vdq3', 'wx2.7-r2v', 'wx2.6-r2v'])
        for (const host of ['169.254.169.254', '127.0.0.1', '10.0.0.1', 'localhost', '[::1]']) {
          const res = await post({ model, prompt: 'image 1', input_reference: { image_url: `http://${host}/a.png` } });
          expect(res.status).toBe(400);
          const { error } = (await res.json()) as { error: { param: string; message: string } };
          expect(error).toMatchObject({ param: 'input_reference', type: 'invalid_request_error' });
          expect(error.message).toMatch(/^input_reference points to a loopback, private, link-local, metadata/);
        }
      // Native fields are the family's own, by their native names.
      const native = await post({
        model: 'wx2.7-r2v',
        prompt: 'image 1',
        input: { media: [{ type: 'reference_image', url: 'http://10.0.0.1/a.png' }] },
      });
      expect(native.status).toBe(400);
      expect(((await native.json()) as { error: { param: string } }).error.param).toBe('input.media[0].url');
      expect(posts()).toBe(before);
    });

    it('takes seconds and size sent as null as not given: the family defaults', async () => {
      const res = await post({ model: 'vdq3', prompt: 'nulls', seconds: null, size: null, input_reference: IMAGE });
      expect(res.status).toBe(200);
      const video = (await res.json()) as { seconds: string; size: string };
      const plain = await post({ model: 'vdq3', prompt: 'absent', input_reference: IMAGE });
      const defaults = (await plain.json()) as { seconds: string; size: string };
      expect([video.seconds, video.size]).toEqual([defaults.seconds, defaults.size]);
      expect(video.seconds).toBe('5');
    });

    it('an Idempotency-Key retry is answered from the first create', async () => {
      const body = JSON.stringify({ model: 'vdq3', prompt: 'once', input_reference: IMAGE });
      const send = () =>
        fetch(`${baseURL}/videos`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${acct.key}`,
            'content-type': 'application/json',
            'idempotency-key': 'k-1',
          },
          body,
        });
      const first = (await (await send()).json()) as { id: string };
      const again = await send();
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(((await again.json()) as { id: string }).id).toBe(first.id);
    });
  });

  describe('callbacks of tasks created here', () => {
    let receiver: CallbackReceiver;
    beforeAll(async () => (receiver = await startCallbackReceiver()));
    afterAll(() => receiver.close());

    it('carry video.completed and video.failed, signed as every callback', async () => {
      const ok = await client.videos.create({
        model: 'vdq3' as never,
        prompt: 'called back',
        input_reference: IMAGE,
        callback_url: receiver.url,
      } as never);
      const failed = await client.videos.create({
        model: 'vdq3' as never,
        prompt: 'sim:fail called back',
        input_reference: IMAGE,
        callback_url: receiver.url,
      } as never);
      await eventually(async () => receiver.received.length >= 2, 8000);
      const details = await gw.admin.get(`/admin/v1/accounts/${acct.id}`).expect(200);
      const wh = new Webhook(details.body.webhook_secret);
      const events = receiver.received.map(
        (r) => wh.verify(r.body, r.headers as Record<string, string>) as { type: string; data: { id: string } },
      );
      const byId = new Map(events.map((e) => [e.data.id, e]));
      expect(byId.get(ok.id)).toMatchObject({
        object: 'event',
        type: 'video.completed',
        data: { status: 'completed' },
      });
      expect(byId.get(failed.id)).toMatchObject({
        type: 'video.failed',
        data: { status: 'failed', error: { code: expect.any(String) } },
      });
    });

    it('sent again by an operator once the copy is kept, carry its expires_at as a query does now', async () => {
      const video = await client.videos.create({
        model: 'vdq3' as never,
        prompt: 'kept, then sent again',
        input_reference: IMAGE,
        callback_url: receiver.url,
      } as never);
      const kept = await eventually(async () => {
        const now = await client.videos.retrieve(video.id);
        return now.expires_at !== null ? now : null;
      }, 8000);
      const events = () =>
        receiver.received
          .map((r) => JSON.parse(r.body) as { data: { id: string; expires_at: number | null } })
          .filter((e) => e.data.id === video.id);
      await eventually(async () => events().length === 1, 8000);
      await gw.admin.post(`/admin/v1/tasks/${video.id}/callbacks/redeliver`, {}).expect(200);
      await eventually(async () => events().length === 2, 8000);
      expect(events()[1].data.expires_at).toBe(kept.expires_at);
    });
  });
});
