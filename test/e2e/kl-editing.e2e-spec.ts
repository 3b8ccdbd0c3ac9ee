import { join } from 'path';
import { DataSource } from 'typeorm';
import { png } from '../fixtures/media';
import { TestAccount } from '../support/gateway-harness';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';
import { tempDirs } from '../support/temp-dirs';

/**
 * kl editing through the simulator (every editing endpoint): sessions with the gateway's own
 * record and limits, per-call session billing, editing tasks, query and list, cross-account 404s.
 */
const BASE = '/kl/v1/videos/multi-elements';
const VIDEO = 'https://example.com/clip.mp4';
const OPS = { init: 1, add: 2, delete: 3, clear: 4, preview: 5 };
const IMAGE = png(400, 400).toString('base64');

const raceDir = tempDirs('gw-race-');

describe('kl editing through the simulator', () => {
  let gw: SimulatedGateway;
  let acct: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    gw = await startSimulatedGateway();
    acct = await gw.admin.account({ models: ['kl-v1', 'kl-v1-6'] });
    other = await gw.admin.account({ models: ['kl-v1', 'kl-v1-6'] });
    const table = (await gw.admin.get('/admin/v1/prices').expect(200)).body;
    table.models['kl-v1'].session_ops = OPS;
    await gw.admin.put('/admin/v1/prices', table).expect(200);
  });
  afterAll(() => gw.close());

  const post = (path: string, body: unknown, account: TestAccount = acct) =>
    gw
      .http()
      .post(`${BASE}${path}`)
      .set(...bearer(account))
      .send(body as object);
  const get = (path: string, account: TestAccount = acct) =>
    gw
      .http()
      .get(`${BASE}${path}`)
      .set(...bearer(account));
  const balance = async (account: TestAccount = acct) =>
    (await gw.admin.get(`/admin/v1/accounts/${account.id}`).expect(200)).body.balance as number;
  // API calls only: the gateway's downloads of finished results (`/assets/...`) run beside the tests.
  const upstreamCalls = () => gw.sim.requests.filter((r) => r.family === 'kl' && !r.path.startsWith('/assets/')).length;
  const init = async (account: TestAccount = acct, body: unknown = { video_url: VIDEO }) =>
    (await post('/init-selection', body, account).expect(200)).body.data;
  const untilStatus = (id: string, status: string, account: TestAccount = acct) =>
    eventually(async () => {
      const res = await get(`/${id}`, account).expect(200);
      return res.body.data.task_status === status ? res.body : null;
    });
  const createBody = (sessionId: string, extra: Record<string, unknown> = {}) => ({
    session_id: sessionId,
    edit_mode: 'addition',
    image_list: [{ image: IMAGE }],
    prompt: 'Using the context of <<<video_1>>>, seamlessly add the hat from <<<image_1>>>',
    ...extra,
  });

  it('init -> add -> add -> delete -> preview -> create -> poll -> succeed -> list, billed per session call', async () => {
    const start = await balance();
    const initRes = await post('/init-selection', { video_url: VIDEO }).expect(200);
    expect(initRes.body).toMatchObject({ code: 0, request_id: expect.any(String) });
    const s = initRes.body.data;
    expect(s).toMatchObject({
      status: 0,
      session_id: expect.stringMatching(/^sess_/),
      fps: 30,
      original_duration: 5,
      width: 1280,
      height: 720,
      total_frame: 150,
      final_unit_deduction: '0',
    });
    expect(s.normalized_video).toMatch(/^http/);
    const upstreamSession = (gw.sim.requests.at(-1) as { path: string }).path;
    expect(upstreamSession).toBe('/v1/videos/multi-elements/init-selection');

    const add1 = await post('/add-selection', {
      session_id: s.session_id,
      frame_index: 0,
      points: [{ x: 0.5, y: 0.5 }],
    }).expect(200);
    expect(add1.body.data).toMatchObject({
      status: 0,
      session_id: s.session_id,
      res: { frame_index: 0, rle_mask_list: [expect.objectContaining({ object_id: 1 })] },
    });
    await post('/add-selection', {
      session_id: s.session_id,
      frame_index: 12,
      points: [
        { x: 0.1, y: 0.2 },
        { x: 0.3, y: 0.4 },
      ],
    }).expect(200);
    const del = await post('/delete-selection', {
      session_id: s.session_id,
      frame_index: 12,
      points: [{ x: 0.1, y: 0.2 }],
    }).expect(200);
    expect(del.body.data).toMatchObject({ session_id: s.session_id, res: { frame_index: 12 } });
    const preview = await post('/preview-selection', { session_id: s.session_id }).expect(200);
    expect(preview.body.data).toMatchObject({
      status: 0,
      session_id: s.session_id,
      res: { video: expect.any(String), video_cover: expect.any(String), tracking_output: expect.any(String) },
    });
    // The upstream got its own session ID, never ours.
    const sent = gw.sim.requests.filter((r) => r.path.endsWith('add-selection')).at(-1)?.body as Record<
      string,
      unknown
    >;
    expect(sent.session_id).not.toBe(s.session_id);
    expect(await balance()).toBe(start - OPS.init - 2 * OPS.add - OPS.delete - OPS.preview);

    const created = await post(
      '',
      createBody(s.session_id, { external_task_id: 'flow-1', watermark_info: { enabled: true } }),
    ).expect(200);
    expect(created.body).toMatchObject({
      code: 0,
      data: {
        task_id: expect.stringMatching(/^task_/),
        task_status: 'submitted',
        task_info: { external_task_id: 'flow-1' },
      },
    });
    const wire = gw.sim.requests.filter((r) => r.method === 'POST' && r.path === '/v1/videos/multi-elements').at(-1)
      ?.body as Record<string, unknown>;
    expect(wire).toMatchObject({
      model_name: 'kl-v1-6',
      edit_mode: 'addition',
      duration: '5',
      mode: 'std',
      image_list: [{ image: IMAGE }],
    });
    expect(wire.session_id).not.toBe(s.session_id);
    expect(wire.external_task_id).toBe(created.body.data.task_id);

    const id = created.body.data.task_id as string;
    const done = await untilStatus(id, 'succeed');
    expect(done.data).toMatchObject({
      task_id: id,
      task_status_msg: '',
      task_info: { external_task_id: 'flow-1' },
      watermark_info: { enabled: true },
      task_result: {
        videos: [{ id: `video_${id.slice(5)}_0`, session_id: s.session_id, url: expect.any(String), duration: '5' }],
      },
    });
    expect(typeof done.data.created_at).toBe('number');
    expect(done.data.created_at).toBeGreaterThan(1e12);

    const list = await get('?pageNum=1&pageSize=10').expect(200);
    expect(list.body).toMatchObject({ code: 0, data: { total: 1, page_num: 1, page_size: 10 } });
    expect(list.body.data.items[0]).toMatchObject({
      task_id: id,
      platform: 'kl',
      action: 'multi_elements',
      status: 'SUCCESS',
      progress: '100%',
      fail_reason: '',
      data: { code: 0, data: { task_id: id, task_status: 'succeed' } },
    });
    expect(list.body.data.items[0].created_at).toBe(Math.floor(done.data.created_at / 1000));

    const usage = (await gw.admin.get(`/admin/v1/usage?account_id=${acct.id}&page_size=50`).expect(200)).body
      .items as Array<{ action: string; amount: number }>;
    const actions = usage.map((u) => u.action).sort();
    expect(actions).toEqual([
      'multi_elements',
      'session_add',
      'session_add',
      'session_delete',
      'session_init',
      'session_preview',
    ]);
    expect((await gw.admin.get('/admin/v1/ledger/verify').expect(200)).body.ok).toBe(true);
  });

  it('a result video_id initialises a session for its owner only; anything else is 404', async () => {
    const s = await init();
    await post('/add-selection', { session_id: s.session_id, frame_index: 0, points: [{ x: 0.5, y: 0.5 }] }).expect(
      200,
    );
    const created = await post('', createBody(s.session_id)).expect(200);
    const done = await untilStatus(created.body.data.task_id, 'succeed');
    const videoId = done.data.task_result.videos[0].id as string;

    const again = await post('/init-selection', { video_id: videoId }).expect(200);
    expect(again.body.data.session_id).toMatch(/^sess_/);
    const sentVideoId = (
      gw.sim.requests.filter((r) => r.path.endsWith('init-selection')).at(-1)?.body as Record<string, unknown>
    ).video_id;
    expect(sentVideoId).not.toBe(videoId);

    const calls = upstreamCalls();
    for (const [body, account] of [
      [{ video_id: videoId }, other],
      [{ video_id: `${videoId.slice(0, -1)}7` }, acct],
      [{ video_id: 'video_nope_0' }, acct],
      [{ video_id: '123456789' }, acct],
    ] as const) {
      const res = await post('/init-selection', body, account).expect(404);
      expect(res.body).toMatchObject({ error: { code: 'not_found', param: 'video_id' }, code: 1203, data: null });
      expect(res.body.error.message).toMatch(/^Unknown video_id/);
    }
    expect(upstreamCalls()).toBe(calls);
  });

  it('refuses every session rule with its param, before any upstream call or charge', async () => {
    const s = await init();
    await post('/add-selection', { session_id: s.session_id, frame_index: 1, points: [{ x: 0.2, y: 0.2 }] }).expect(
      200,
    );
    const calls = upstreamCalls();
    const start = await balance();
    const cases: Array<[string, unknown, string]> = [
      ['/init-selection', {}, 'video_url'],
      ['/init-selection', { video_id: 'v', video_url: VIDEO }, 'video_id'],
      ['/init-selection', { video_url: 'ftp://x.test/a.mp4' }, 'video_url'],
      ['/init-selection', { video_url: 'https://x.test/a.avi' }, 'video_url'],
      ['/init-selection', { video_url: 'http://10.0.0.1/a.mp4' }, 'video_url'],
      ['/init-selection', { video_url: 'http://[::1]/a.mp4' }, 'video_url'],
      ['/init-selection', { video_url: VIDEO, extra: 1 }, 'extra'],
      ['/add-selection', { session_id: s.session_id, frame_index: 150, points: [{ x: 0.1, y: 0.1 }] }, 'frame_index'],
      ['/add-selection', { session_id: s.session_id, frame_index: -1, points: [{ x: 0.1, y: 0.1 }] }, 'frame_index'],
      ['/add-selection', { session_id: s.session_id, frame_index: 1.5, points: [{ x: 0.1, y: 0.1 }] }, 'frame_index'],
      ['/add-selection', { session_id: s.session_id, frame_index: 2, points: [{ x: 1.1, y: 0.1 }] }, 'points[0].x'],
      ['/add-selection', { session_id: s.session_id, frame_index: 2, points: [{ x: 0.1, y: -0.1 }] }, 'points[0].y'],
      ['/add-selection', { session_id: s.session_id, frame_index: 2, points: [] }, 'points'],
      [
        '/add-selection',
        {
          session_id: s.session_id,
          frame_index: 2,
          points: Array.from({ length: 11 }, (_, i) => ({ x: i / 20, y: 0 })),
        },
        'points',
      ],
      [
        '/add-selection',
        {
          session_id: s.session_id,
          frame_index: 1,
          points: Array.from({ length: 10 }, (_, i) => ({ x: i / 20 + 0.5, y: 0 })),
        },
        'points',
      ],
      ['/add-selection', { frame_index: 2, points: [{ x: 0.1, y: 0.1 }] }, 'session_id'],
      ['/delete-selection', { session_id: s.session_id, frame_index: 1, points: [{ x: 0.2, y: 0.2000001 }] }, 'points'],
      ['/delete-selection', { session_id: s.session_id, frame_index: 3, points: [{ x: 0.2, y: 0.2 }] }, 'points'],
      ['/clear-selection', {}, 'session_id'],
      ['/preview-selection', { session_id: s.session_id, model_name: 7 }, 'model_name'],
    ];
    for (const [path, body, param] of cases) {
      const res = await post(path, body);
      expect({ path, param: res.body.error?.param, status: res.status }).toEqual({ path, param, status: 400 });
      expect(res.body).toMatchObject({
        error: { code: 'invalid_request', type: 'invalid_request_error' },
        code: 1201,
        data: null,
      });
    }
    // A session with nothing selected has nothing to preview.
    const empty = await init();
    const callsAfterInit = upstreamCalls();
    const balanceAfterInit = await balance();
    expect((await post('/preview-selection', { session_id: empty.session_id }).expect(400)).body.error.param).toBe(
      'session_id',
    );
    expect(upstreamCalls()).toBe(callsAfterInit);
    expect(balanceAfterInit).toBe(start - OPS.init);
    expect(callsAfterInit).toBe(calls + 1);
  });

  it('another account’s or an unknown session is 404; an expired one is 400 naming session_id', async () => {
    const s = await init();
    const calls = upstreamCalls();
    const missing = [
      ...['/add-selection', '/delete-selection'].map((path) =>
        post(path, { session_id: s.session_id, frame_index: 0, points: [{ x: 0.1, y: 0.1 }] }, other),
      ),
      post('/clear-selection', { session_id: s.session_id }, other),
      post('/preview-selection', { session_id: 'sess_unknown' }),
      post('/add-selection', { session_id: 'sess_unknown', frame_index: 0, points: [{ x: 0.1, y: 0.1 }] }),
      post('', createBody(s.session_id), other),
      post('', createBody('sess_unknown')),
    ];
    for (const res of await Promise.all(missing)) {
      expect(res.status).toBe(404);
      // Unknown and another account's look alike, and say what to do.
      expect(res.body.error).toMatchObject({ code: 'not_found', param: 'session_id' });
      expect(res.body.error.message).toMatch(/^Unknown session_id: .*initialise the video/);
    }

    await gw.app
      .get(DataSource)
      .query('UPDATE kl_sessions SET expires_at = 1 WHERE id = $1'.replace('$1', `'${s.session_id}'`));
    for (const [path, body] of [
      ['/add-selection', { session_id: s.session_id, frame_index: 0, points: [{ x: 0.1, y: 0.1 }] }],
      ['/clear-selection', { session_id: s.session_id }],
      ['', createBody(s.session_id)],
    ] as const) {
      const expired = await post(path, body).expect(400);
      expect(expired.body.error).toMatchObject({ param: 'session_id', code: 'invalid_request' });
      expect(expired.body.error.message).toMatch(/^Expired session_id: .*initialise the video again/);
    }
    expect(upstreamCalls()).toBe(calls);
  });

  it('clear empties the record: ten new frames fit again', async () => {
    const s = await init();
    for (let f = 0; f < 10; f++)
      await post('/add-selection', { session_id: s.session_id, frame_index: f, points: [{ x: 0.5, y: 0.5 }] }).expect(
        200,
      );
    expect(
      (
        await post('/add-selection', {
          session_id: s.session_id,
          frame_index: 10,
          points: [{ x: 0.5, y: 0.5 }],
        }).expect(400)
      ).body.error.param,
    ).toBe('frame_index');
    await post('/clear-selection', { session_id: s.session_id }).expect(200);
    await post('/add-selection', { session_id: s.session_id, frame_index: 10, points: [{ x: 0.5, y: 0.5 }] }).expect(
      200,
    );
  });

  it('the last frame slot and the last point slot: of racing requests exactly one wins', async () => {
    const s = await init();
    for (let f = 0; f < 9; f++)
      await post('/add-selection', { session_id: s.session_id, frame_index: f, points: [{ x: 0.5, y: 0.5 }] }).expect(
        200,
      );
    const frames = await Promise.all(
      [20, 21, 22, 23].map((f) =>
        post('/add-selection', { session_id: s.session_id, frame_index: f, points: [{ x: 0.5, y: 0.5 }] }),
      ),
    );
    expect(frames.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);

    const t = await init();
    await post('/add-selection', {
      session_id: t.session_id,
      frame_index: 0,
      points: Array.from({ length: 9 }, (_, i) => ({ x: i / 10, y: 0 })),
    }).expect(200);
    const points = await Promise.all(
      [0.11, 0.12, 0.13].map((y) =>
        post('/add-selection', { session_id: t.session_id, frame_index: 0, points: [{ x: 0.5, y }] }),
      ),
    );
    expect(points.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    expect(points.filter((r) => r.status === 400).every((r) => r.body.error.param === 'points')).toBe(true);
  });

  it('refuses every editing-task rule with its param, before any upstream call or charge', async () => {
    const s = await init();
    const long = await init(acct, { video_url: 'https://example.com/long.mp4?m=sim:long' });
    expect(long.original_duration).toBe(10);
    const calls = upstreamCalls();
    const start = await balance();
    const cases: Array<[Record<string, unknown>, string, number?]> = [
      [createBody(s.session_id, { model_name: 'kl-v1' }), 'model_name'],
      [createBody(s.session_id, { model: 'kl-v1' }), 'model'],
      [createBody(s.session_id, { edit_mode: 'paint' }), 'edit_mode'],
      [createBody(s.session_id, { image_list: [] }), 'image_list'],
      [createBody(s.session_id, { edit_mode: 'swap', image_list: [{ image: IMAGE }, { image: IMAGE }] }), 'image_list'],
      [createBody(s.session_id, { edit_mode: 'removal', prompt: 'Delete the cup from <<<video_1>>>' }), 'image_list'],
      [createBody(s.session_id, { image_list: [{ image: `data:image/png;base64,${IMAGE}` }] }), 'image_list[0].image'],
      [createBody(s.session_id, { image_list: [{ image: png(200, 400).toString('base64') }] }), 'image_list[0].image'],
      [createBody(s.session_id, { image_list: [{ image: png(300, 800).toString('base64') }] }), 'image_list[0].image'],
      [createBody(s.session_id, { prompt: 'add <<<image_2>>> to <<<video_1>>>' }), 'prompt'],
      [createBody(s.session_id, { prompt: 'x'.repeat(2501) }), 'prompt'],
      [createBody(s.session_id, { negative_prompt: 'x'.repeat(2501) }), 'negative_prompt'],
      [createBody(s.session_id, { mode: 'ultra' }), 'mode'],
      [createBody(s.session_id, { duration: 7 }), 'duration'],
      [createBody(s.session_id, { duration: '10' }), 'duration'],
      [createBody(long.session_id, { duration: 5 }), 'duration'],
      [createBody(s.session_id, { watermark_info: { enabled: 'yes' } }), 'watermark_info.enabled'],
      [createBody(s.session_id, { watermark_info: true }), 'watermark_info'],
      [createBody(s.session_id, { watermark_info: [] }), 'watermark_info'],
      [createBody(s.session_id, { watermark_info: [{ enabled: true }] }), 'watermark_info'],
      [createBody(s.session_id, { watermark_info: {} }), 'watermark_info.enabled'],
      [createBody(s.session_id, { callback_url: 'not a url' }), 'callback_url'],
      [createBody(s.session_id, { seed: 3 }), 'seed'],
      [createBody(s.session_id, { model_name: 'kl-v9' }), 'model_name', 404],
    ];
    for (const [body, param, status = 400] of cases) {
      const res = await post('', body);
      expect({ param: res.body.error?.param, status: res.status }).toEqual({ param, status });
    }
    expect(upstreamCalls()).toBe(calls);
    expect(await balance()).toBe(start);

    // Accepted: kl-v1-6 named explicitly, duration 10 as an integer on a 10 s video, external_task_id once per account.
    await post(
      '',
      createBody(long.session_id, { model_name: 'kl-v1-6', duration: 10, external_task_id: 'dup-1' }),
    ).expect(200);
    expect(
      (await post('', createBody(long.session_id, { external_task_id: 'dup-1', duration: '10' })).expect(400)).body
        .error.param,
    ).toBe('external_task_id');
    // other account: not its session
    await post('', createBody(long.session_id, { external_task_id: 'dup-1', duration: '10' }), other).expect(404);
  });

  it('optional fields sent as null are taken as not given', async () => {
    const s = await init();
    const nulls = { watermark_info: null, negative_prompt: null, callback_url: null, model_name: null, model: null };
    const res = await post('', createBody(s.session_id, nulls)).expect(200);
    const sent = gw.sim.requests.filter((r) => r.family === 'kl' && r.method === 'POST').at(-1)?.body as Record<
      string,
      unknown
    >;
    expect(sent.watermark_info).toBeUndefined();
    expect(sent.negative_prompt).toBeUndefined();
    expect(sent.model_name).toBe('kl-v1-6');
    const done = await untilStatus(res.body.data.task_id, 'succeed');
    expect(done.data.watermark_info).toEqual({ enabled: false });
  });

  it('query and list are the caller’s own: 404 across accounts, filters, pagination, limits', async () => {
    const s = await init(other);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(
        '',
        createBody(s.session_id, {
          edit_mode: 'removal',
          image_list: undefined,
          prompt: `Delete cup ${i} from <<<video_1>>>`,
        }),
        other,
      ).expect(200);
      ids.push(res.body.data.task_id);
    }
    await get(`/${ids[0]}`).expect(404);
    await get(`/${ids[0]}`, other).expect(200);

    const all = await get('?pageSize=2', other).expect(200);
    expect(all.body.data.total).toBe(3);
    expect(all.body.data.items.map((i: { task_id: string }) => i.task_id)).toEqual([ids[2], ids[1]]);
    const page2 = await get('?pageSize=2&pageNum=2', other).expect(200);
    expect(page2.body.data.items.map((i: { task_id: string }) => i.task_id)).toEqual([ids[0]]);

    const filtered = await get(
      `?filter.task_ids=${ids[0]}&filter.task_ids=${ids[2]}&filter.model=kl-v1-6`,
      other,
    ).expect(200);
    expect(filtered.body.data.items.map((i: { task_id: string }) => i.task_id).sort()).toEqual([ids[0], ids[2]].sort());
    expect((await get(`?filter.model=kl-v1`, other).expect(200)).body.data.total).toBe(0);
    expect((await get(`?filter.task_ids=${ids[0]}`).expect(200)).body.data.total).toBe(0);

    const tooMany = Array.from({ length: 101 }, (_, i) => `filter.task_ids=t${i}`).join('&');
    expect((await get(`?${tooMany}`, other).expect(400)).body.error.param).toBe('filter.task_ids');
    expect((await get('?pageNum=0', other).expect(400)).body.error.param).toBe('pageNum');
    expect((await get('?pageSize=501', other).expect(400)).body.error.param).toBe('pageSize');
  });

  it('a session call the upstream refuses or cannot read is not charged and leaves no session', async () => {
    const start = await balance();
    const rejected = await post('/init-selection', { video_url: 'https://example.com/a.mp4?m=sim:reject' }).expect(400);
    expect(rejected.body.error.code).toBe('invalid_request');
    expect(rejected.body.message).toContain('sim:reject'); // the upstream's own message is passed on
    await post('/init-selection', { video_url: 'https://example.com/a.mp4?m=sim:error500' }).expect(503);
    const unrecognised = await post('/init-selection', { video_url: 'https://example.com/a.mp4?m=sim:fail' }).expect(
      400,
    );
    expect(unrecognised.body.error.param).toBe('video_url');
    expect(await balance()).toBe(start);
    expect((await gw.admin.get('/admin/v1/ledger/verify').expect(200)).body.ok).toBe(true);
  });

  it('two instances racing for the last frame slot: exactly one wins', async () => {
    // Two gateways on one database: the test run's PostgreSQL, or one SQLite file (WAL) on the embedded default.
    const onPostgres = (process.env.DATABASE_URL ?? '').startsWith('postgres');
    const shared: Record<string, string> = onPostgres
      ? {}
      : { DATABASE_URL: `sqlite:${join(raceDir(), 'gateway.sqlite')}` };
    const first = onPostgres ? gw : await startSimulatedGateway({ sim: gw.sim, env: shared });
    const second = await startSimulatedGateway({ sim: gw.sim, keepData: true, env: shared });
    try {
      const owner = onPostgres ? acct : await first.admin.account({ models: ['kl-v1', 'kl-v1-6'] });
      const via = (g: SimulatedGateway, body: unknown) =>
        g
          .http()
          .post(`${BASE}/add-selection`)
          .set(...bearer(owner))
          .send(body as object);
      const s = (
        await first
          .http()
          .post(`${BASE}/init-selection`)
          .set(...bearer(owner))
          .send({ video_url: VIDEO })
          .expect(200)
      ).body.data;
      for (let f = 0; f < 9; f++)
        await via(first, { session_id: s.session_id, frame_index: f, points: [{ x: 0.5, y: 0.5 }] }).expect(200);
      const body = (f: number) => ({ session_id: s.session_id, frame_index: f, points: [{ x: 0.5, y: 0.5 }] });
      const results = await Promise.all([
        via(first, body(30)),
        via(second, body(31)),
        via(first, body(32)),
        via(second, body(33)),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
    } finally {
      await second.close();
      if (first !== gw) await first.close();
    }
  });

  it('a failed task carries the upstream’s reason', async () => {
    const s = await init();
    await post('/add-selection', { session_id: s.session_id, frame_index: 0, points: [{ x: 0.5, y: 0.5 }] }).expect(
      200,
    );
    const res = await post(
      '',
      createBody(s.session_id, { prompt: 'add <<<image_1>>> to <<<video_1>>> sim:fail' }),
    ).expect(200);
    const failed = await untilStatus(res.body.data.task_id, 'failed');
    expect(failed.data.task_status_msg).toBeTruthy();
    expect(failed.data.task_result.videos).toEqual([]);
  });
});
