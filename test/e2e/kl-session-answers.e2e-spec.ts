import { simulatorChannels } from '../../src/bootstrap/resolve-channels';
import { KlSessionsRepository } from '../../src/families/kl/sessions/kl-sessions.repository';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator';
import { Harness, TestAccount, startGateway } from '../support/gateway-harness';
import { FAST_ENV, bearer } from '../support/simulated-gateway';
import { SwitchableUpstream, startSwitchableUpstream } from '../support/switchable-upstream';

const BASE = '/kl/v1/videos/multi-elements';
const OPS = { init: 1, add: 2, delete: 3, clear: 4, preview: 5 };
const MASK = { size: [720, 1280], counts: 'PPYo0_gP' };
const PNG = { size: [720, 1280], base64: 'iVBORw0KGgo=' };

/**
 * kl session answers, with the upstream's answers chosen by the test (a door in front of the
 * simulator that passes calls through or answers what it is told): only the documented fields of
 * the upstream's `data` reach the caller, a non-zero `data.status` on add or delete is a failure
 * that changes and charges nothing, and a session the upstream lost is said to be expired.
 */
describe('kl session answers', () => {
  let sim: RunningSimulator;
  let door: SwitchableUpstream;
  let gw: Harness;
  let acct: TestAccount;

  beforeAll(async () => {
    sim = await startSimulator({ taskMs: 150 });
    door = await startSwitchableUpstream(sim.endpoints.kl.baseUrl);
    gw = await startGateway({
      channels: [{ ...simulatorChannels(sim, ['kl'])[0], baseUrl: door.baseUrl }],
      env: FAST_ENV,
    });
    acct = await gw.admin.account({ models: ['kl-v1'] });
    const table = (await gw.admin.get('/admin/v1/prices').expect(200)).body;
    table.models['kl-v1'].session_ops = OPS;
    await gw.admin.put('/admin/v1/prices', table).expect(200);
  });
  afterAll(async () => {
    await gw?.close();
    await door?.close();
    await sim?.close();
  });
  afterEach(() => {
    door.mode = 'proxy';
  });

  const post = (path: string, body: unknown) =>
    gw
      .http()
      .post(`${BASE}${path}`)
      .set(...bearer(acct))
      .send(body as object);
  const balance = async () => (await gw.admin.get(`/admin/v1/accounts/${acct.id}`).expect(200)).body.balance as number;
  const marks = async (sessionId: string) =>
    (await gw.app.get(KlSessionsRepository).findForAccount(sessionId, acct.id))?.marks;
  /** A live session with one point on frame 3, made through the simulator. */
  async function markedSession(): Promise<{ id: string; upstreamId: string }> {
    const s = (await post('/init-selection', { video_url: 'https://example.com/clip.mp4' }).expect(200)).body.data;
    await post('/add-selection', { session_id: s.session_id, frame_index: 3, points: [{ x: 0.5, y: 0.5 }] }).expect(
      200,
    );
    const row = await gw.app.get(KlSessionsRepository).findForAccount(s.session_id, acct.id);
    return { id: s.session_id, upstreamId: row?.upstreamSessionId as string };
  }
  /** The door answers the next calls with this kl envelope. */
  const upstreamAnswers = (data: unknown, status = 200, code = 0, message = 'SUCCEED') => {
    door.mode = 'answer';
    door.answer = { status, body: { code, message, request_id: 'upstream-req', data } };
  };

  it('add, delete, clear and preview pass only the documented fields of the upstream’s data', async () => {
    const s = await markedSession();
    const extra = { task_id: 'upstream-task-1', session_id: s.upstreamId, debug: { node: 'gpu-7' } };
    upstreamAnswers({
      ...extra,
      status: 0,
      final_unit_deduction: 2,
      res: {
        frame_index: 3,
        trace: 'x',
        rle_mask_list: [{ object_id: 1, score: 0.9, rle_mask: { ...MASK, bbox: [1] }, png_mask: { ...PNG, url: 'u' } }],
      },
    });
    const selection = { status: 0, session_id: s.id, final_unit_deduction: '2' };
    const maskRes = { frame_index: 3, rle_mask_list: [{ object_id: 1, rle_mask: MASK, png_mask: PNG }] };
    const added = await post('/add-selection', { session_id: s.id, frame_index: 3, points: [{ x: 0.2, y: 0.2 }] });
    expect(added.status).toBe(200);
    expect(added.body.data).toEqual({ ...selection, res: maskRes });
    const deleted = await post('/delete-selection', { session_id: s.id, frame_index: 3, points: [{ x: 0.2, y: 0.2 }] });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ ...selection, res: maskRes });

    upstreamAnswers({
      ...extra,
      status: 0,
      final_unit_deduction: '0',
      res: {
        video: 'https://upstream.example/masked.mp4',
        video_cover: 'https://upstream.example/cover.png',
        tracking_output: 'https://upstream.example/tracking.png',
        internal_path: '/mnt/x',
      },
    });
    const preview = await post('/preview-selection', { session_id: s.id }).expect(200);
    expect(Object.keys(preview.body.data).sort()).toEqual(['final_unit_deduction', 'res', 'session_id', 'status']);
    expect(Object.keys(preview.body.data.res).sort()).toEqual(['tracking_output', 'video', 'video_cover']);
    expect(preview.body.data.session_id).toBe(s.id);

    upstreamAnswers({ ...extra, status: 0, final_unit_deduction: '0' });
    const cleared = await post('/clear-selection', { session_id: s.id }).expect(200);
    expect(cleared.body.data).toEqual({ status: 0, session_id: s.id, final_unit_deduction: '0' });
    expect(JSON.stringify(cleared.body)).not.toContain(s.upstreamId);
  });

  it('a non-zero data.status on add or delete is a 400 that records and charges nothing', async () => {
    const s = await markedSession();
    const before = await balance();
    const recorded = await marks(s.id);
    upstreamAnswers({ status: 2, session_id: s.upstreamId, final_unit_deduction: '1', res: { frame_index: 4 } });
    for (const [path, frame] of [
      ['/add-selection', 4],
      ['/delete-selection', 3],
    ] as const) {
      const res = await post(path, { session_id: s.id, frame_index: frame, points: [{ x: 0.5, y: 0.5 }] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'points' });
      expect(res.body.error.message).toMatch(/status 2/);
    }
    expect(await balance()).toBe(before);
    expect(await marks(s.id)).toEqual(recorded);
    // The same calls answered with status 0 are charged (add 2, delete 3).
    upstreamAnswers({ status: 0, session_id: s.upstreamId, final_unit_deduction: '1', res: { frame_index: 4 } });
    await post('/add-selection', { session_id: s.id, frame_index: 4, points: [{ x: 0.5, y: 0.5 }] }).expect(200);
    await post('/delete-selection', { session_id: s.id, frame_index: 3, points: [{ x: 0.5, y: 0.5 }] }).expect(200);
    expect(await balance()).toBe(before - OPS.add - OPS.delete);
    expect(await marks(s.id)).toEqual({ '4': [{ x: 0.5, y: 0.5 }] });
  });

  it('a session the upstream no longer holds is 400 "expired", naming session_id, without the upstream’s ID', async () => {
    const s = await markedSession();
    const before = await balance();
    door.mode = 'answer';
    door.answer = {
      status: 404,
      body: { code: 1203, message: `session ${s.upstreamId} not found`, request_id: 'r', data: null },
    };
    const res = await post('/clear-selection', { session_id: s.id }).expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'session_id' });
    expect(res.body.error.message).toMatch(/^Expired session_id: .*initialise the video again/);
    expect(JSON.stringify(res.body)).not.toContain(s.upstreamId);
    expect(await balance()).toBe(before);
  });
});
