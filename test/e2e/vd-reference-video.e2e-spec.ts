import { createServer, IncomingMessage, Server } from 'http';
import { AddressInfo } from 'net';
import { Webhook } from 'standardwebhooks';
import { TestAccount } from '../support/gateway-harness';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';
import { GATEWAY_RESULT_URL, SAMPLE_MP4, getResult } from '../support/results';
import { dataUrl, mp4, png } from '../fixtures/media';

const CREATE = '/vd/ent/v2/reference2video';

const subjectBody = (prompt = '@cat plays in the garden', extra: Record<string, unknown> = {}) => ({
  model: 'vdq3',
  subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
  prompt,
  ...extra,
});
const nonSubjectBody = (extra: Record<string, unknown> = {}) => ({
  model: 'vdq2-pro',
  images: ['https://example.com/a.png'],
  videos: ['https://example.com/clip.mp4'],
  prompt: 'the cat walks',
  ...extra,
});

describe('vd through the simulator', () => {
  let gw: SimulatedGateway;
  let acct: TestAccount;

  beforeAll(async () => {
    gw = await startSimulatedGateway();
    acct = await gw.admin.account({ models: ['vdq3', 'vdq2-pro', 'vdq3-mix'] });
  });
  afterAll(() => gw.close());

  const create = (body: unknown, account: TestAccount = acct) =>
    gw
      .http()
      .post(CREATE)
      .set(...bearer(account))
      .send(body as object);
  const creations = (id: string, account: TestAccount = acct) =>
    gw
      .http()
      .get(`/vd/ent/v2/tasks/${id}/creations`)
      .set(...bearer(account));
  const untilState = (id: string, state: string) =>
    eventually(async () => {
      const res = await creations(id).expect(200);
      return res.body.state === state ? res.body : null;
    });

  it('subject mode: echoes every field with the values used, then succeeds', async () => {
    const res = await create(subjectBody()).expect(200);
    expect(res.body).toMatchObject({
      task_id: expect.stringMatching(/^task_/),
      state: 'created',
      model: 'vdq3',
      prompt: '@cat plays in the garden',
      images: ['https://example.com/cat.png'],
      duration: 5,
      seed: expect.any(Number),
      aspect_ratio: '16:9',
      resolution: '720p',
      audio: true,
      audio_type: 'all',
      movement_amplitude: 'auto',
      payload: '',
      off_peak: false,
      watermark: false,
      credits: expect.any(Number),
    });
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.body.videos).toBeUndefined();
    const done = await untilState(res.body.task_id, 'success');
    expect(done).toMatchObject({
      id: res.body.task_id,
      err_code: '',
      creations: [{ id: expect.stringMatching(/^creation_/), url: expect.stringMatching(GATEWAY_RESULT_URL) }],
    });
    // The creation's URLs are the gateway's and serve the upstream's video bytes.
    expect(done.creations[0].watermarked_url).toMatch(GATEWAY_RESULT_URL);
    const video = await getResult(gw.http, done.creations[0].url).expect(200);
    expect(Buffer.compare(video.body as Buffer, SAMPLE_MP4)).toBe(0);
  });

  it('non-subject vdq2-pro: echoes videos and succeeds', async () => {
    const res = await create(nonSubjectBody({ payload: 'order-42' })).expect(200);
    expect(res.body).toMatchObject({
      state: 'created',
      videos: ['https://example.com/clip.mp4'],
      images: ['https://example.com/a.png'],
      payload: 'order-42',
    });
    const done = await untilState(res.body.task_id, 'success');
    expect(done.payload).toBe('order-42');
  });

  it('a failed task shows failed with its error code', async () => {
    const res = await create(subjectBody('@cat sim:fail')).expect(200);
    const done = await untilState(res.body.task_id, 'failed');
    expect(done.err_code).toBeTruthy();
    expect(done.creations).toEqual([]);
  });

  it('another account’s task is 404 with vd native fields', async () => {
    const res = await create(subjectBody()).expect(200);
    const other = await gw.admin.account({ models: ['vdq3'] });
    const q = await creations(res.body.task_id, other).expect(404);
    expect(q.body).toMatchObject({ code: 404, reason: 'TaskNotFound', error: { code: 'not_found' } });
  });

  it('rejects a rule violation before any upstream call, naming the field', async () => {
    const posts = () => gw.sim.requests.filter((r) => r.family === 'vd' && r.method === 'POST').length;
    const before = posts();
    const mix = await create({ ...subjectBody(), model: 'vdq3-mix' }).expect(400);
    expect(mix.body).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      error: { code: 'invalid_request', param: 'model' },
    });
    const both = await create({ ...subjectBody(), images: ['https://example.com/a.png'] }).expect(400);
    expect(both.body.error.param).toBe('images');
    const duration = await create(subjectBody('@cat x', { duration: 17 })).expect(400);
    expect(duration.body.error.param).toBe('duration');
    expect(posts()).toBe(before);
  });

  it('decodes Base64 videos and refuses bytes that are not the video their type names, before any upstream call', async () => {
    const posts = () => gw.sim.requests.filter((r) => r.family === 'vd' && r.method === 'POST').length;
    const before = posts();
    for (const [field, body] of [
      ['videos[0]', nonSubjectBody({ videos: ['data:video/mp4;base64,AAAA'] })],
      ['videos[0]', nonSubjectBody({ videos: [dataUrl('video/x-msvideo', mp4(5))] })],
      [
        'subjects[0].videos[0]',
        {
          ...subjectBody('@cat x'),
          model: 'vdq2-pro',
          subjects: [{ name: 'cat', videos: [dataUrl('video/mp4', png(300, 300))] }],
        },
      ],
    ] as const) {
      const res = await create(body).expect(400);
      expect(res.body).toMatchObject({
        code: 400,
        reason: 'BadRequest',
        error: { code: 'invalid_request', param: field },
      });
    }
    expect(posts()).toBe(before);
    const ok = await create(nonSubjectBody({ videos: [dataUrl('video/mp4', mp4(5))] })).expect(200);
    expect(ok.body.videos).toEqual([expect.stringMatching(/^\[base64 video\/mp4 \d+ bytes\]$/)]);
    expect(posts()).toBe(before + 1);
  });

  it('refuses Base64 videos longer than vdq2-pro takes, naming the video, before any upstream call', async () => {
    const posts = () => gw.sim.requests.filter((r) => r.family === 'vd' && r.method === 'POST').length;
    const video = (seconds: number) => dataUrl('video/mp4', mp4(seconds));
    const subject = (seconds: number) => ({
      ...subjectBody('@cat x'),
      model: 'vdq2-pro',
      subjects: [
        { name: 'cat', images: ['https://example.com/cat.png'] },
        { name: 'dog', videos: [video(seconds)] },
      ],
    });
    const before = posts();
    for (const [body, param, limit] of [
      [nonSubjectBody({ videos: [video(8.5)] }), 'videos[0]', 'longer than 8 s'],
      [nonSubjectBody({ videos: [video(9)] }), 'videos[0]', 'longer than 8 s'],
      [nonSubjectBody({ videos: [video(5), video(6)] }), 'videos[1]', 'longer than 5 s'],
      [nonSubjectBody({ videos: [video(8), video(5)] }), 'videos[0]', 'longer than 5 s'],
      [subject(5.5), 'subjects[1].videos[0]', 'longer than 5 s'],
    ] as const) {
      const res = await create(body).expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
      expect(res.body.error.message).toContain(`${param}: video duration`);
      expect(res.body.error.message).toContain(limit);
    }
    expect(posts()).toBe(before);
    await create(nonSubjectBody({ videos: [video(8)] })).expect(200);
    await create(nonSubjectBody({ videos: [video(5), video(5)] })).expect(200);
    await create(subject(5)).expect(200);
    expect(posts()).toBe(before + 3);
  });

  it('refuses media URLs at loopback, private, link-local or metadata addresses, naming the field', async () => {
    const posts = () => gw.sim.requests.filter((r) => r.family === 'vd' && r.method === 'POST').length;
    const before = posts();
    const hosts = ['169.254.169.254', '127.0.0.1', '10.0.0.1', 'localhost', '[::1]', 'metadata.google.internal'];
    for (const host of hosts) {
      const url = (file: string) => `http://${host}/${file}`;
      for (const [body, param] of [
        [nonSubjectBody({ images: [url('a.png')] }), 'images[0]'],
        [nonSubjectBody({ videos: ['https://example.com/a.mp4', url('b.mp4')] }), 'videos[1]'],
        [{ ...subjectBody(), subjects: [{ name: 'cat', images: [url('c.png')] }] }, 'subjects[0].images[0]'],
        [
          { ...subjectBody(), model: 'vdq2-pro', subjects: [{ name: 'cat', videos: [url('c.mp4')] }] },
          'subjects[0].videos[0]',
        ],
        [subjectBody('@cat', { watermark: true, wm_url: url('logo.png') }), 'wm_url'],
      ] as const) {
        const res = await create(body).expect(400);
        expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
        expect(res.body.error.message).toMatch(/loopback, private, link-local, metadata/);
      }
    }
    expect(posts()).toBe(before);
  });

  describe('client callbacks', () => {
    let receiver: Server;
    const received: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
    let url: string;

    beforeAll(async () => {
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          received.push({ headers: req.headers, body });
          // The first attempt fails, so delivery must retry.
          res.statusCode = received.length === 1 ? 500 : 204;
          res.end();
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    });
    afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

    it('delivers the query body signed per Standard Webhooks, retrying after a failure', async () => {
      const res = await create(subjectBody('@cat with callback', { callback_url: url })).expect(200);
      await eventually(async () => received.length >= 2, 8000);
      const details = await gw.admin.get(`/admin/v1/accounts/${acct.id}`).expect(200);
      const wh = new Webhook(details.body.webhook_secret);
      const last = received[1];
      const verified = wh.verify(last.body, last.headers as Record<string, string>) as Record<string, unknown>;
      expect(verified).toMatchObject({ id: res.body.task_id, state: 'success' });
      expect(received[0].headers['webhook-id']).toBe(last.headers['webhook-id']);
      // The upstream never sees the caller's callback address.
      const sent = gw.sim.requests.filter((r) => r.family === 'vd' && r.method === 'POST').at(-1)?.body as Record<
        string,
        unknown
      >;
      expect(sent.callback_url).toBeUndefined();
    });

    // Literals outside the public ranges, each one the delivery agent would refuse at every attempt.
    const NON_PUBLIC = [
      'http://127.0.0.1:9/hook',
      'http://198.18.0.1/hook',
      'http://224.0.0.1/hook',
      'http://255.255.255.255/hook',
      'http://[2001:db8::1]/hook',
      'http://[64:ff9b::a00:1]/hook',
    ];

    it('refuses a callback destination outside the public ranges unless the operator allows it', async () => {
      // This suite's gateway allows private callbacks (CALLBACK_ALLOW_PRIVATE=true): a loopback one is taken.
      // Only loopback: the task's callback is really sent. Before the strict gateway starts, which on
      // PostgreSQL starts from an empty schema.
      await create(subjectBody('@cat y', { callback_url: NON_PUBLIC[0] })).expect(200);
      const strict = await startSimulatedGateway({ env: { CALLBACK_ALLOW_PRIVATE: 'false' } });
      try {
        const a = await strict.admin.account({ models: ['vdq3'] });
        const creates = () => strict.sim.requests.filter((r) => r.family === 'vd' && r.method === 'POST').length;
        for (const callbackUrl of NON_PUBLIC) {
          const before = creates();
          const res = await strict
            .http()
            .post(CREATE)
            .set(...bearer(a))
            .send(subjectBody('@cat x', { callback_url: callbackUrl }))
            .expect(400);
          expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'callback_url' });
          expect(creates()).toBe(before);
        }
      } finally {
        await strict.close();
      }
    }, 30_000); // a second gateway starts inside the test (on PostgreSQL: a fresh schema and its migrations)
  });
});

// Its own gateway, after the one above has closed: on PostgreSQL a gateway starts from an empty schema.
describe('vd with private media URLs allowed by the operator', () => {
  it('takes media URLs at private addresses (MEDIA_FETCH_ALLOW_PRIVATE)', async () => {
    const open = await startSimulatedGateway({ env: { MEDIA_FETCH_ALLOW_PRIVATE: 'true' } });
    try {
      const a = await open.admin.account({ models: ['vdq2-pro'] });
      await open
        .http()
        .post(CREATE)
        .set(...bearer(a))
        .send(nonSubjectBody({ images: ['http://127.0.0.1/a.png'], videos: ['http://10.0.0.1/b.mp4'] }))
        .expect(200);
    } finally {
      await open.close();
    }
  }, 30_000); // the gateway starts inside the test
});
