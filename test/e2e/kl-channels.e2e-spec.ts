import { simulatorChannels } from '../../src/bootstrap/resolve-channels';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator';
import { UpstreamChannel } from '../../src/upstream/upstream.types';
import { Harness, TestAccount, startGateway } from '../support/gateway-harness';
import { FAST_ENV, bearer, eventually } from '../support/simulated-gateway';

/**
 * kl over two upstream channels (two simulators, i.e. two upstream accounts): an upstream
 * session exists only on the channel that initialised it, so every editing task on a session goes
 * to that channel, whatever the round-robin pick would say; a voice made from a result video goes
 * to the video's channel.
 */
const BASE = '/kl/v1/videos/multi-elements';

describe('kl channel affinity with two kl channels', () => {
  let gw: Harness;
  let sims: RunningSimulator[];
  let acct: TestAccount;

  beforeAll(async () => {
    sims = [await startSimulator({ taskMs: 150 }), await startSimulator({ taskMs: 150 })];
    const channels: UpstreamChannel[] = sims.map((sim, i) => ({
      ...simulatorChannels(sim, ['kl'])[0],
      id: `kl-${'ab'[i]}`,
    }));
    gw = await startGateway({ channels, env: FAST_ENV });
    acct = await gw.admin.account({ models: ['kl-v1', 'kl-v1-6'] });
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all((sims ?? []).map((sim) => sim.close()));
  });

  const post = (path: string, body: unknown) =>
    gw
      .http()
      .post(path)
      .set(...bearer(acct))
      .send(body as object);
  const get = (path: string) =>
    gw
      .http()
      .get(path)
      .set(...bearer(acct));
  /** Which simulator got POSTs to this upstream path, in order. */
  const hits = (path: string) =>
    sims.map((sim) => sim.requests.filter((r) => r.method === 'POST' && r.path === path).length);
  const succeeded = (path: string) =>
    eventually(async () => {
      const res = await get(path).expect(200);
      return res.body.data.task_status === 'succeed' ? res.body.data : null;
    });

  it('every editing task goes to the channel holding its session, and succeeds there', async () => {
    const sessions: Array<{ id: string; sim: number }> = [];
    for (let i = 0; i < 2; i++) {
      const before = hits('/v1/videos/multi-elements/init-selection');
      const s = (await post(`${BASE}/init-selection`, { video_url: 'https://example.com/clip.mp4' }).expect(200)).body
        .data;
      const after = hits('/v1/videos/multi-elements/init-selection');
      sessions.push({ id: s.session_id, sim: after.findIndex((n, k) => n > before[k]) });
      await post(`${BASE}/add-selection`, {
        session_id: s.session_id,
        frame_index: 0,
        points: [{ x: 0.5, y: 0.5 }],
      }).expect(200);
    }
    // Round robin spread the sessions over both channels.
    expect(sessions.map((s) => s.sim).sort()).toEqual([0, 1]);

    // Three tasks per session: a pick by round robin would send some of them to the other channel.
    const videoIds: Array<{ videoId: string; sim: number }> = [];
    for (const session of sessions) {
      for (let i = 0; i < 3; i++) {
        const before = hits('/v1/videos/multi-elements');
        const created = await post(BASE, {
          session_id: session.id,
          edit_mode: 'removal',
          prompt: 'Delete the cup from <<<video_1>>>',
          duration: '5',
        }).expect(200);
        const after = hits('/v1/videos/multi-elements');
        expect(after.map((n, k) => n - before[k])).toEqual(session.sim === 0 ? [1, 0] : [0, 1]);
        const done = await succeeded(`${BASE}/${created.body.data.task_id}`);
        expect(done.task_result.videos[0].session_id).toBe(session.id);
        videoIds.push({ videoId: done.task_result.videos[0].id, sim: session.sim });
      }
    }

    // A voice from a result video goes to the video's channel too.
    for (const { videoId, sim } of [videoIds[0], videoIds[3]]) {
      const before = hits('/v1/general/custom-voices');
      const created = await post('/kl/v1/general/custom-voices', {
        voice_name: 'from video',
        video_id: videoId,
      }).expect(200);
      const after = hits('/v1/general/custom-voices');
      expect(after.map((n, k) => n - before[k])).toEqual(sim === 0 ? [1, 0] : [0, 1]);
      await succeeded(`/kl/v1/general/custom-voices/${created.body.data.task_id}`);
    }
  });
});
