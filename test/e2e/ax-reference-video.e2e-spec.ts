import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { IdempotencyRecordEntity } from '../../src/core/tasks/entities/idempotency-record.entity';
import { TestAccount } from '../support/gateway-harness';
import { GATEWAY_RESULT_URL, SAMPLE_MP4, getResult } from '../support/results';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';

const CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';

function newProtocolBody(prompt = 'Image 1 walks on the beach', extra: Record<string, unknown> = {}) {
  return {
    model: 'wx2.7-r2v',
    input: { prompt, media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
    parameters: { resolution: '720P', duration: 5 },
    ...extra,
  };
}

describe('ax through the simulator', () => {
  let gw: SimulatedGateway;
  let acct: TestAccount;

  beforeAll(async () => {
    gw = await startSimulatedGateway();
    acct = await gw.admin.account({ models: ['wx2.7-r2v', 'wx2.6-r2v', 'wx2.6-r2v-flash'] });
  });
  afterAll(() => gw.close());

  const create = (body: unknown, account: TestAccount = acct) =>
    gw
      .http()
      .post(CREATE)
      .set(...bearer(account))
      .send(body as object);
  /** Create calls the upstream received (the sync worker's polls run beside the tests). */
  const creates = () => gw.sim.requests.filter((r) => r.family === 'ax' && r.method === 'POST').length;
  const query = (id: string, account: TestAccount = acct) =>
    gw
      .http()
      .get(`/ax/api/v1/tasks/${id}`)
      .set(...bearer(account));

  it('creates a task, answers PENDING with a public id and reaches SUCCEEDED with a video URL', async () => {
    const res = await create(newProtocolBody()).expect(200);
    expect(res.body).toEqual({
      request_id: res.headers['x-request-id'],
      output: { task_id: expect.stringMatching(/^task_/), task_status: 'PENDING' },
    });
    expect(res.headers['server-timing']).toMatch(/gw;dur=[\d.]+, upstream;dur=[\d.]+/);
    const sent = gw.sim.requests.filter((r) => r.family === 'ax' && r.method === 'POST');
    expect(sent.at(-1)?.headers['x-dashscope-async']).toBe('enable');
    const id = res.body.output.task_id;
    const done = await eventually(async () => {
      const q = await query(id).expect(200);
      return q.body.output.task_status === 'SUCCEEDED' ? q.body : null;
    });
    // The video URL is the gateway's own (results are kept), serving the upstream's video bytes.
    expect(done.output).toMatchObject({ task_id: id, task_status: 'SUCCEEDED', video_url: expect.any(String) });
    expect(done.output.video_url).toMatch(GATEWAY_RESULT_URL);
    const video = await getResult(gw.http, done.output.video_url).expect(200);
    expect(video.headers['content-type']).toMatch(/^video\/mp4/);
    expect(Buffer.compare(video.body as Buffer, SAMPLE_MP4)).toBe(0);
    expect(done.output.submit_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    expect(done.usage).toBeDefined();
    // The simulator's own task IDs are UUIDs: none may show, the result URL included.
    expect(JSON.stringify({ ...done, request_id: undefined })).not.toMatch(
      /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/,
    );
  });

  it('hides another account’s task behind 404', async () => {
    const other = await gw.admin.account({ models: ['wx2.7-r2v'] });
    const res = await create(newProtocolBody()).expect(200);
    const q = await query(res.body.output.task_id, other).expect(404);
    expect(q.body).toMatchObject({ code: 'NotFound', error: { code: 'not_found' } });
  });

  it('turns an upstream failure into FAILED with its reason', async () => {
    const res = await create(newProtocolBody('Image 1 sim:fail')).expect(200);
    const done = await eventually(async () => {
      const q = await query(res.body.output.task_id).expect(200);
      return q.body.output.task_status === 'FAILED' ? q.body : null;
    });
    expect(done.output.code).toBeTruthy();
    expect(done.output.message).toBeTruthy();
  });

  it('passes an upstream rejection on as 400 with the native code', async () => {
    const before = creates();
    const res = await create(newProtocolBody('Image 1 sim:reject')).expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', type: 'invalid_request_error' });
    expect(typeof res.body.code).toBe('string');
    expect(creates()).toBe(before + 1);
  });

  it('answers an upstream 500 with 503 service_unavailable', async () => {
    const res = await create(newProtocolBody('Image 1 sim:error500')).expect(503);
    expect(res.body).toMatchObject({ code: 'ServiceUnavailable', error: { code: 'service_unavailable' } });
    // Worth repeating, and when: the gateway cannot know, so it names the breaker's few seconds.
    expect(res.headers['retry-after']).toBe('5');
  });

  it('rejects invalid input before any upstream call, naming the field', async () => {
    const before = creates();
    const res = await create({ ...newProtocolBody(), parameters: { duration: 16 } }).expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'parameters.duration' });
    expect(creates()).toBe(before);
  });

  it('refuses media URLs at loopback, private, link-local or metadata addresses, naming the field', async () => {
    const before = creates();
    const hosts = [
      '169.254.169.254',
      '127.0.0.1',
      '10.0.0.1',
      '192.168.1.1',
      'localhost',
      '[::1]',
      '[::ffff:127.0.0.1]',
    ];
    const media = (...items: Array<Record<string, unknown>>) => ({
      ...newProtocolBody(),
      input: {
        prompt: 'Image 1 walks',
        media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }, ...items],
      },
    });
    for (const host of hosts) {
      const url = (file: string) => `http://${host}/${file}`;
      for (const [body, param] of [
        [media({ type: 'reference_image', url: url('a.png') }), 'input.media[1].url'],
        [media({ type: 'reference_image', url: `http://${host}/` }), 'input.media[1].url'],
        [media({ type: 'reference_video', url: url('b.mp4') }), 'input.media[1].url'],
        [media({ type: 'first_frame', url: url('c.png') }), 'input.media[1].url'],
        [
          media({ type: 'reference_video', url: 'https://example.com/b.mp4', reference_voice: url('v.mp3') }),
          'input.media[1].reference_voice',
        ],
        [
          {
            model: 'wx2.6-r2v',
            input: { prompt: 'character1', reference_urls: ['https://example.com/a.png', url('b.mp4')] },
          },
          'input.reference_urls[1]',
        ],
        [
          { model: 'wx2.6-r2v', input: { prompt: 'character1', reference_video_urls: [url('a.png')] } },
          'input.reference_video_urls[0]',
        ],
      ] as const) {
        const res = await create(body).expect(400);
        expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
        expect(res.body.error.message).toMatch(/loopback, private, link-local, metadata/);
      }
    }
    expect(creates()).toBe(before);
  });

  it('keeps the native rejection for missing reference fields', async () => {
    const res = await create({
      model: 'wx2.6-r2v',
      input: { prompt: 'character1 dances', ref_urls: ['https://example.com/a.png'] },
    }).expect(400);
    expect(res.body).toMatchObject({
      code: 'InvalidParameter',
      message: 'please provide reference_video_urls or reference_urls',
      error: { code: 'invalid_request' },
    });
  });

  it('accepts the deprecated reference_video_urls with a Deprecation header', async () => {
    const res = await create({
      model: 'wx2.6-r2v',
      input: { prompt: 'character1 dances', reference_video_urls: ['https://example.com/a.png'] },
    }).expect(200);
    expect(res.headers.deprecation).toBeDefined();
    const sent = gw.sim.requests.filter((r) => r.family === 'ax' && r.method === 'POST').at(-1)?.body as {
      input: Record<string, unknown>;
    };
    expect(sent.input.reference_urls).toEqual(['https://example.com/a.png']);
    expect(sent.input.reference_video_urls).toBeUndefined();
  });

  describe('authentication and model access', () => {
    it('401 without a key, with a bad key, and with a revoked key', async () => {
      const none = await gw.http().post(CREATE).send(newProtocolBody()).expect(401);
      expect(none.body).toMatchObject({
        code: 'InvalidApiKey',
        error: { code: 'invalid_api_key', type: 'authentication_error' },
      });
      await gw.http().post(CREATE).set('Authorization', 'Bearer vgw_nope').send(newProtocolBody()).expect(401);
      const temp = await gw.admin.account({ models: ['wx2.7-r2v'] });
      await create(newProtocolBody(), temp).expect(200);
      await gw.admin.delete(`/admin/v1/keys/${temp.keyId}`).expect(200);
      await create(newProtocolBody(), temp).expect(401);
    });

    it('401 for an expired key and a disabled account', async () => {
      const temp = await gw.admin.account({ models: ['wx2.7-r2v'] });
      const expired = await gw.admin
        .post(`/admin/v1/accounts/${temp.id}/keys`, { expires_at: '2020-01-01T00:00:00Z' })
        .expect(201);
      await gw
        .http()
        .post(CREATE)
        .set('Authorization', `Bearer ${expired.body.key}`)
        .send(newProtocolBody())
        .expect(401);
      await gw.admin.patch(`/admin/v1/accounts/${temp.id}`, { disabled: true }).expect(200);
      await create(newProtocolBody(), temp).expect(401);
    });

    it('404 model_not_found for an unknown or not-enabled model, naming the field', async () => {
      const unknown = await create({ ...newProtocolBody(), model: 'wx9' }).expect(404);
      expect(unknown.body).toMatchObject({ code: 'ModelNotFound', error: { code: 'model_not_found', param: 'model' } });
      const notEnabled = await create({ ...newProtocolBody(), model: 'wx2.7-r2v-2026-06-12' }).expect(404);
      expect(notEnabled.body.error).toMatchObject({ code: 'model_not_found', param: 'model' });
    });

    it('403 permission_denied when the model lacks the capability or the key is restricted', async () => {
      const temp = await gw.admin.account({ models: ['wx2.7-r2v', 'wx2.6-r2v'] });
      const restricted = await gw.admin
        .post(`/admin/v1/accounts/${temp.id}/keys`, { models: ['wx2.6-r2v'] })
        .expect(201);
      const res = await gw
        .http()
        .post(CREATE)
        .set('Authorization', `Bearer ${restricted.body.key}`)
        .send(newProtocolBody())
        .expect(403);
      expect(res.body).toMatchObject({ code: 'AccessDenied', error: { code: 'permission_denied', param: 'model' } });
      await gw.admin
        .put(`/admin/v1/accounts/${temp.id}/models`, {
          models: [{ model: 'kl-v1', capabilities: ['voices'] }, { model: 'wx2.7-r2v' }],
        })
        .expect(200);
      const cap = await gw.admin.account({
        models: [
          { model: 'wx2.6-r2v', capabilities: [] },
          { model: 'kl-v1', capabilities: ['voices'] },
        ],
      });
      const lacking = await create({ ...newProtocolBody(), model: 'wx2.6-r2v' }, cap).expect(403);
      expect(lacking.body.error).toMatchObject({ code: 'permission_denied', param: 'model' });
      // A kl model is no model of this route at all: 404 naming the route that serves it.
      const wrong = await create({ ...newProtocolBody(), model: 'kl-v1' }, cap).expect(404);
      expect(wrong.body.error).toMatchObject({ code: 'model_not_found', param: 'model' });
      expect(wrong.body.error.message).toContain('family kl model; send it to POST /kl/v1/');
    });

    it('requires a model on ax', async () => {
      const res = await create({ input: { prompt: 'x' } }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'model' });
    });
  });

  describe('rate limits', () => {
    it('429 rate_limit_exceeded with Retry-After and RateLimit headers past the per-minute limit', async () => {
      const limited = await gw.admin.account({ models: ['wx2.7-r2v'], rate_limit_rpm: 2 });
      const q = () =>
        gw
          .http()
          .get('/ax/api/v1/tasks/task_none')
          .set(...bearer(limited));
      const first = await q().expect(404);
      expect(first.headers['ratelimit-limit']).toBe('2');
      expect(first.headers['ratelimit-remaining']).toBe('1');
      await q().expect(404);
      const res = await q().expect(429);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.body).toMatchObject({
        code: 'Throttling',
        error: { code: 'rate_limit_exceeded', type: 'rate_limit_error' },
      });
    });

    it('a limit taken from Redis in batches (200 a minute and up) still lets exactly the limit through one instance', async () => {
      const limited = await gw.admin.account({ models: ['wx2.7-r2v'], rate_limit_rpm: 200 });
      const remaining: string[] = [];
      for (let i = 0; i < 200; i++) {
        const res = await gw
          .http()
          .get('/ax/api/v1/tasks/task_none')
          .set(...bearer(limited))
          .expect(404);
        remaining.push(res.headers['ratelimit-remaining']);
      }
      expect(remaining).toEqual(Array.from({ length: 200 }, (_, i) => String(199 - i)));
      const refused = await gw
        .http()
        .get('/ax/api/v1/tasks/task_none')
        .set(...bearer(limited))
        .expect(429);
      expect(refused.headers['ratelimit-remaining']).toBe('0');
    });

    it('caps in-flight tasks per account with 429 before anything is held or sent', async () => {
      const capped = await gw.admin.account({ models: ['wx2.7-r2v'], max_concurrent_tasks: 1 });
      await create(newProtocolBody('Image 1 sim:slow'), capped).expect(200);
      const before = creates();
      const res = await create(newProtocolBody(), capped).expect(429);
      expect(res.body.error.code).toBe('rate_limit_exceeded');
      expect(creates()).toBe(before);
      const account = await gw.admin.get(`/admin/v1/accounts/${capped.id}`).expect(200);
      expect(account.body.in_flight_tasks).toBe(1);
    });
  });

  describe('idempotency', () => {
    it('replays the first response for the same key and body, without a new task', async () => {
      const body = newProtocolBody('Image 1 idem');
      const first = await create(body).set('Idempotency-Key', 'k-1').expect(200);
      const posts = creates();
      const again = await create(body).set('Idempotency-Key', 'k-1').expect(200);
      expect(again.body.output.task_id).toBe(first.body.output.task_id);
      expect(creates()).toBe(posts);
    });

    it('replays the same JSON with its members in another order and other spacing: same meaning, same request', async () => {
      const first = await create(newProtocolBody('Image 1 reordered')).set('Idempotency-Key', 'k-order').expect(200);
      const posts = creates();
      const reordered =
        '{ "parameters": {"duration": 5, "resolution": "720P"},\n' +
        '  "input": {"media": [{"url": "https://example.com/cat.png", "type": "reference_image"}], "prompt": "Image 1 reordered"},\n' +
        '  "model": "wx2.7-r2v" }';
      const again = await gw
        .http()
        .post(CREATE)
        .set(...bearer(acct))
        .set('Content-Type', 'application/json')
        .set('Idempotency-Key', 'k-order')
        .send(reordered)
        .expect(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.output.task_id).toBe(first.body.output.task_id);
      expect(creates()).toBe(posts);
      const reversedMedia = newProtocolBody('Image 1 reordered');
      reversedMedia.input.media.push({ type: 'reference_image', url: 'https://example.com/dog.png' });
      await create(reversedMedia).set('Idempotency-Key', 'k-order').expect(422);
    });

    it('a key stored with the plain fingerprint (the body as it arrived) still replays the same body', async () => {
      const body = newProtocolBody('Image 1 plain');
      const first = await create(body).set('Idempotency-Key', 'k-plain').expect(200);
      const plain = createHash('sha256')
        .update(`POST ${CREATE}\n${JSON.stringify(body)}`)
        .digest('hex');
      await gw.app
        .get(DataSource)
        .getRepository(IdempotencyRecordEntity)
        .update({ accountId: acct.id, key: 'k-plain' }, { requestHash: plain });
      const again = await create(body).set('Idempotency-Key', 'k-plain').expect(200);
      expect(again.body.output.task_id).toBe(first.body.output.task_id);
      await create(newProtocolBody('Image 1 other')).set('Idempotency-Key', 'k-plain').expect(422);
    });

    it('422 for the same key with another body; validation failures are not remembered', async () => {
      await create(newProtocolBody('Image 1 a')).set('Idempotency-Key', 'k-2').expect(200);
      const res = await create(newProtocolBody('Image 1 b')).set('Idempotency-Key', 'k-2').expect(422);
      expect(res.body.error.code).toBe('idempotency_mismatch');
      await create({ ...newProtocolBody('Image 1 c'), parameters: { duration: 99 } })
        .set('Idempotency-Key', 'k-3')
        .expect(400);
      await create(newProtocolBody('Image 1 c')).set('Idempotency-Key', 'k-3').expect(200);
    });

    it('a bad body is refused by the rules before its key is looked up: 400, not the key mismatch', async () => {
      await create(newProtocolBody('Image 1 d')).set('Idempotency-Key', 'k-5').expect(200);
      const res = await create({ ...newProtocolBody('Image 1 d'), parameters: { duration: 99 } })
        .set('Idempotency-Key', 'k-5')
        .expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'parameters.duration' });
    });

    it('409 while the first request with the key is still in flight', async () => {
      const slow = await startSimulatedGateway({ env: { UPSTREAM_TIMEOUT_MS: '400' } });
      try {
        const a = await slow.admin.account({ models: ['wx2.7-r2v'] });
        const body = newProtocolBody('Image 1 sim:hang');
        const first = slow
          .http()
          .post(CREATE)
          .set(...bearer(a))
          .set('Idempotency-Key', 'k-4')
          .send(body);
        const firstDone = first.then((r) => r);
        await eventually(async () => slow.sim.requests.some((r) => r.method === 'POST'));
        const second = await slow
          .http()
          .post(CREATE)
          .set(...bearer(a))
          .set('Idempotency-Key', 'k-4')
          .send(body)
          .expect(409);
        expect(second.body.error.code).toBe('idempotency_in_progress');
        expect(second.headers['retry-after']).toBe('1');
        expect((await firstDone).status).toBe(503);
      } finally {
        await slow.close();
      }
    });
  });
});
