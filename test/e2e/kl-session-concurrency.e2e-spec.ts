import { join } from 'path';
import { KlMarks } from '../../src/families/kl/sessions/kl-session.entity';
import { KlSessionsRepository } from '../../src/families/kl/sessions/kl-sessions.repository';
import { RecordedRequest } from '../../src/simulator/simulator';
import { TestAccount } from '../support/gateway-harness';
import { SimulatedGateway, bearer, startSimulatedGateway } from '../support/simulated-gateway';
import { tempDirs } from '../support/temp-dirs';

const BASE = '/kl/v1/videos/multi-elements';
const UPSTREAM = '/v1/videos/multi-elements';
const POINT = { x: 0.5, y: 0.5 };
type Point = typeof POINT;

/**
 * kl session marks under concurrency, across two gateway instances sharing one database and
 * one upstream: a session's upstream calls are serialised, so that after any mix of racing add, clear
 * and delete calls the gateway's recorded marks are exactly what the upstream holds.
 */
const sessionsDir = tempDirs('gw-sessions-');

describe('kl session marks under concurrent mutations on two instances', () => {
  jest.setTimeout(120_000);
  let a: SimulatedGateway;
  let b: SimulatedGateway;
  let acct: TestAccount;

  beforeAll(async () => {
    const onPostgres = (process.env.DATABASE_URL ?? '').startsWith('postgres');
    const shared: Record<string, string> = onPostgres
      ? {}
      : { DATABASE_URL: `sqlite:${join(sessionsDir(), 'gateway.sqlite')}` };
    a = await startSimulatedGateway({ env: shared });
    b = await startSimulatedGateway({ sim: a.sim, keepData: true, env: shared });
    acct = await a.admin.account({ models: ['kl-v1'] });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const post = (gw: SimulatedGateway, path: string, body: unknown) =>
    gw
      .http()
      .post(`${BASE}${path}`)
      .set(...bearer(acct))
      .send(body as object);
  const add = (gw: SimulatedGateway, sessionId: string, frame: number) =>
    post(gw, '/add-selection', { session_id: sessionId, frame_index: frame, points: [POINT] });
  const clear = (gw: SimulatedGateway, sessionId: string) => post(gw, '/clear-selection', { session_id: sessionId });
  const recorded = async (sessionId: string) => {
    const row = await a.app.get(KlSessionsRepository).findForAccount(sessionId, acct.id);
    if (!row) throw new Error(`no session ${sessionId}`);
    return { marks: row.marks, upstreamId: row.upstreamSessionId };
  };

  it('add, clear and add at once, 20 rounds: the recorded marks always equal the upstream’s', async () => {
    const mismatches: string[] = [];
    for (let round = 0; round < 20; round++) {
      const s = (await post(a, '/init-selection', { video_url: 'https://example.com/clip.mp4' }).expect(200)).body.data;
      // One earlier mark, so that a clear has something to remove whatever the order.
      await add(b, s.session_id, 10).expect(200);
      const [first, second] = round % 2 === 0 ? [a, b] : [b, a];
      const answers = await Promise.all([
        add(first, s.session_id, 50),
        clear(second, s.session_id),
        add(first, s.session_id, 51),
      ]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      const { marks, upstreamId } = await recorded(s.session_id);
      const upstream = upstreamMarks(a.sim.requests, upstreamId);
      if (JSON.stringify(sorted(marks)) !== JSON.stringify(sorted(upstream))) {
        mismatches.push(`round ${round}: recorded ${JSON.stringify(marks)}, upstream ${JSON.stringify(upstream)}`);
      }
      // What a client sees agrees: a preview works exactly when something is marked.
      const preview = await post(b, '/preview-selection', { session_id: s.session_id });
      if (preview.status !== (Object.keys(upstream).length > 0 ? 200 : 400)) {
        mismatches.push(`round ${round}: preview answered ${preview.status} with upstream ${JSON.stringify(upstream)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('after racing calls every recorded point can be deleted and ten new frames fit, as the upstream agrees', async () => {
    const s = (await post(a, '/init-selection', { video_url: 'https://example.com/clip.mp4' }).expect(200)).body.data;
    for (let f = 0; f < 5; f++) await add(a, s.session_id, f).expect(200);
    const answers = await Promise.all([
      add(a, s.session_id, 50),
      clear(b, s.session_id),
      add(b, s.session_id, 51),
      clear(a, s.session_id),
      add(a, s.session_id, 52),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const { marks } = await recorded(s.session_id);
    for (const frame of Object.keys(marks)) {
      await post(b, '/delete-selection', {
        session_id: s.session_id,
        frame_index: Number(frame),
        points: [POINT],
      }).expect(200);
    }
    for (let f = 100; f < 110; f++) await add(a, s.session_id, f).expect(200);
  });

  it('a session busy past the wait is 409 naming session_id, and the waiting call never reaches the upstream', async () => {
    const s = (await post(a, '/init-selection', { video_url: 'https://example.com/clip.mp4' }).expect(200)).body.data;
    // Another instance's call holds the session (its lease outlives the wait).
    const repo = a.app.get(KlSessionsRepository);
    expect(await repo.acquireLease(s.session_id, 'lease-held-elsewhere', Date.now(), Date.now() + 60_000)).toBe(true);
    const calls = a.sim.requests.length;
    const started = Date.now();
    const busy = await add(b, s.session_id, 1).expect(409);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(busy.body.error).toMatchObject({ code: 'session_busy', param: 'session_id' });
    expect(busy.body.error.message).toMatch(/another request/i);
    expect(a.sim.requests.length).toBe(calls);
    await repo.releaseLease(s.session_id, 'lease-held-elsewhere');
    await add(b, s.session_id, 1).expect(200);
  });
});

/** The upstream's marks of one session, replayed from the calls it received in arrival order (as it handled them). */
function upstreamMarks(requests: readonly RecordedRequest[], upstreamId: string): KlMarks {
  const frames = new Map<number, Point[]>();
  for (const r of requests) {
    const body = r.body as { session_id?: string; frame_index?: number; points?: Point[] } | undefined;
    if (r.family !== 'kl' || r.method !== 'POST' || body?.session_id !== upstreamId) continue;
    const frame = body.frame_index ?? -1;
    const held = frames.get(frame) ?? [];
    const same = (p: Point, q: Point) => p.x === q.x && p.y === q.y;
    if (r.path === `${UPSTREAM}/clear-selection`) frames.clear();
    else if (r.path === `${UPSTREAM}/add-selection`)
      frames.set(frame, [...held, ...(body.points ?? []).filter((p) => !held.some((h) => same(h, p)))]);
    else if (
      r.path === `${UPSTREAM}/delete-selection` &&
      (body.points ?? []).every((p) => held.some((h) => same(h, p)))
    ) {
      const left = held.filter((h) => !(body.points ?? []).some((p) => same(h, p)));
      if (left.length) frames.set(frame, left);
      else frames.delete(frame);
    }
  }
  return Object.fromEntries([...frames].map(([frame, points]) => [String(frame), points]));
}

function sorted(marks: KlMarks): Array<[string, KlMarks[string]]> {
  return Object.entries(marks).sort(([x], [y]) => Number(x) - Number(y));
}
