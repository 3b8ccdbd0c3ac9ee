import { join } from 'path';
import { simulatorChannels } from '../../src/bootstrap/resolve-channels';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator';
import { UpstreamAgents } from '../../src/upstream/http/upstream-agents';
import { UpstreamChannel } from '../../src/upstream/upstream.types';
import { Harness, TestAccount, startGateway } from '../support/gateway-harness';
import { FAST_ENV, bearer, eventually } from '../support/simulated-gateway';
import { REFUSING_BASE_URL, SwitchableUpstream, startSwitchableUpstream } from '../support/switchable-upstream';
import { tempDirs } from '../support/temp-dirs';

/**
 * Channel routing over loopback doubles: several ax channels in front of the built-in
 * simulator, some behind a switchable server that refuses, fails or hangs on demand.
 */
const AX_CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const body = (model = 'wx2.7-r2v') => ({
  model,
  input: { prompt: 'Image 1 walks', media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
});
// Tasks stay open (no polling): these tests look at where creates go, not at task lives.
const ENV = { ...FAST_ENV, WORKERS_ENABLED: 'false' };

const channelsDir = tempDirs('gw-channels-');

describe('channel routing (ax over simulator channels)', () => {
  jest.setTimeout(60_000);
  let sim: RunningSimulator;
  const open: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    sim = await startSimulator({ taskMs: 60_000 });
  });
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });
  afterAll(async () => {
    await sim.close();
  });

  const axChannel = (id: string, extra: Partial<UpstreamChannel> = {}): UpstreamChannel => ({
    ...simulatorChannels(sim, ['ax'])[0],
    id,
    ...extra,
  });
  async function gateway(channels: UpstreamChannel[], env: Record<string, string> = {}): Promise<Harness> {
    const gw = await startGateway({ channels, env: { ...ENV, ...env } });
    open.push(gw);
    return gw;
  }
  async function front(): Promise<SwitchableUpstream> {
    const door = await startSwitchableUpstream(sim.endpoints.ax.baseUrl);
    open.push(door);
    return door;
  }
  const account = (gw: Harness) =>
    gw.admin.account({
      models: ['wx2.7-r2v', 'wx2.7-r2v-2026-06-12'],
      max_concurrent_tasks: 100000,
      rate_limit_rpm: 1000000,
    });
  const create = (gw: Harness, acct: TestAccount, model?: string) =>
    gw
      .http()
      .post(AX_CREATE)
      .set(...bearer(acct))
      .send(body(model));
  /** Creates per channel id, from the operator view. */
  async function createsByChannel(gw: Harness): Promise<Record<string, number>> {
    const res = await gw.admin.get('/admin/v1/channels').expect(200);
    return Object.fromEntries(
      (res.body.data as Array<{ id: string; in_flight: number }>).map((c) => [c.id, c.in_flight]),
    );
  }
  async function createMany(gw: Harness, acct: TestAccount, n: number, model?: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let done = 0; done < n; done += 20) {
      const batch = await Promise.all(Array.from({ length: Math.min(20, n - done) }, () => create(gw, acct, model)));
      statuses.push(...batch.map((res) => res.status));
    }
    return statuses;
  }

  it('spreads 2,000 creates by weight, each share within 5 points of its weight share', async () => {
    const gw = await gateway([
      axChannel('ax-a', { weight: 5 }),
      axChannel('ax-b', { weight: 3 }),
      axChannel('ax-c', { weight: 2 }),
    ]);
    const acct = await account(gw);
    const statuses = await createMany(gw, acct, 2000);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const counts = await createsByChannel(gw);
    expect(counts['ax-a'] + counts['ax-b'] + counts['ax-c']).toBe(2000);
    expect(Math.abs(counts['ax-a'] / 2000 - 0.5)).toBeLessThan(0.05);
    expect(Math.abs(counts['ax-b'] / 2000 - 0.3)).toBeLessThan(0.05);
    expect(Math.abs(counts['ax-c'] / 2000 - 0.2)).toBeLessThan(0.05);
  });

  it('uses the backup tier only while the first tier is down; a 503 channel costs the client nothing', async () => {
    const primary = await front();
    const gw = await gateway([
      axChannel('ax-primary', { baseUrl: primary.baseUrl, priority: 1 }),
      axChannel('ax-backup'),
    ]);
    const acct = await account(gw);
    expect(await createMany(gw, acct, 10)).toEqual(Array(10).fill(200));
    expect(await createsByChannel(gw)).toEqual({ 'ax-primary': 10, 'ax-backup': 0 });

    primary.mode = '503';
    expect(await createMany(gw, acct, 20)).toEqual(Array(20).fill(200));
    expect(await createsByChannel(gw)).toEqual({ 'ax-primary': 10, 'ax-backup': 20 });
    const view = (await gw.admin.get('/admin/v1/channels').expect(200)).body.data[0];
    expect(view).toMatchObject({
      id: 'ax-primary',
      breaker: 'open',
      last_error: { message: expect.stringMatching(/HTTP 503|circuit open/) },
    });
  });

  it('a channel that refuses connections: every create succeeds on the other one', async () => {
    const gw = await gateway([axChannel('ax-dead', { baseUrl: REFUSING_BASE_URL }), axChannel('ax-live')]);
    const acct = await account(gw);
    expect(await createMany(gw, acct, 20)).toEqual(Array(20).fill(200));
    expect(await createsByChannel(gw)).toEqual({ 'ax-dead': 0, 'ax-live': 20 });
  });

  it('a channel that takes the create and never answers: no second create anywhere; left for reconciliation', async () => {
    const hanging = await front();
    hanging.mode = 'hang';
    const gw = await gateway([axChannel('ax-hang', { baseUrl: hanging.baseUrl, priority: 1 }), axChannel('ax-other')], {
      UPSTREAM_TIMEOUT_MS: '300',
    });
    const acct = await account(gw);
    const postsBefore = sim.requests.filter((r) => r.method === 'POST').length;
    const res = await create(gw, acct);
    expect(res.status).toBe(503);
    expect(hanging.posts).toBe(1);
    expect(sim.requests.filter((r) => r.method === 'POST').length).toBe(postsBefore);
    // Still open on the channel that may hold it.
    expect(await createsByChannel(gw)).toEqual({ 'ax-hang': 1, 'ax-other': 0 });
  });

  it('a create that could not be sent in time (no connection free) goes to the next channel', async () => {
    const hanging = await front();
    hanging.mode = 'hang';
    const gw = await gateway([axChannel('ax-busy', { baseUrl: hanging.baseUrl, priority: 1 }), axChannel('ax-free')], {
      UPSTREAM_TIMEOUT_MS: '3000',
      UPSTREAM_CONNECT_TIMEOUT_MS: '300',
    });
    // One connection per upstream host: the hanging create holds ax-busy's.
    gw.app.get(UpstreamAgents).http.maxSockets = 1;
    const acct = await account(gw);
    const first = create(gw, acct).then((res) => res.status);
    await eventually(async () => hanging.posts === 1);
    const started = Date.now();
    const second = await create(gw, acct);
    expect(second.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(hanging.posts).toBe(1);
    expect(await first).toBe(503);
    expect(await createsByChannel(gw)).toEqual({ 'ax-busy': 1, 'ax-free': 1 });
    // Both creates were tried on ax-busy first: the one that hangs, and the one that never got a connection.
    const busy = (await gw.admin.get('/admin/v1/channels').expect(200)).body.data[0];
    expect(busy).toMatchObject({ id: 'ax-busy', last_hour: { creates: 2, errors: 2 } });
  });

  it("a channel's account out of balance: the create goes elsewhere and the channel cools down", async () => {
    const broke = await front();
    broke.mode = 'answer';
    broke.answer = {
      status: 400,
      body: {
        request_id: 'r',
        code: 'Arrearage',
        message: 'Access denied, please make sure your account is in good standing.',
      },
    };
    const gw = await gateway([axChannel('ax-broke', { baseUrl: broke.baseUrl, priority: 1 }), axChannel('ax-paid')]);
    const acct = await account(gw);
    for (let i = 0; i < 5; i++) await create(gw, acct).expect(200);
    expect(broke.posts).toBe(1);
    const view = (await gw.admin.get('/admin/v1/channels').expect(200)).body.data;
    expect(view[0]).toMatchObject({
      id: 'ax-broke',
      breaker: 'closed',
      cooling_down_until: expect.any(String),
      in_flight: 0,
    });
    expect(view[1]).toMatchObject({ id: 'ax-paid', in_flight: 5 });
  });

  it('keeps per-model channels to their models', async () => {
    const gw = await gateway([
      axChannel('ax-pinned', { models: ['wx2.7-r2v-2026-06-12'], weight: 5 }),
      axChannel('ax-all'),
    ]);
    const acct = await account(gw);
    expect(await createMany(gw, acct, 20, 'wx2.7-r2v')).toEqual(Array(20).fill(200));
    expect(await createsByChannel(gw)).toEqual({ 'ax-pinned': 0, 'ax-all': 20 });
    expect(await createMany(gw, acct, 12, 'wx2.7-r2v-2026-06-12')).toEqual(Array(12).fill(200));
    expect(await createsByChannel(gw)).toEqual({ 'ax-pinned': 10, 'ax-all': 22 });
  });

  it('lists channels without credentials; PATCH validates and 404s an unknown channel', async () => {
    const gw = await gateway([axChannel('ax-a', { maxInFlight: 7, weight: 2 })]);
    const res = await gw.admin.get('/admin/v1/channels').expect(200);
    expect(res.body.data).toEqual([
      {
        id: 'ax-a',
        family: 'ax',
        enabled: true,
        weight: 2,
        priority: 0,
        models: null,
        max_in_flight: 7,
        in_flight: 0,
        breaker: 'closed',
        cooling_down_until: null,
        last_minute: { creates: 0, errors: 0 },
        last_hour: { creates: 0, errors: 0 },
        latency_ms: null,
        last_error: null,
        healthy: true,
        unhealthy_reason: null,
        unhealthy_since: null,
      },
    ]);
    expect(JSON.stringify(res.body)).not.toContain(sim.endpoints.ax.apiKey);
    await gw.admin.patch('/admin/v1/channels/ax-a', { weight: -1 }).expect(400);
    await gw.admin.patch('/admin/v1/channels/nope', { enabled: false }).expect(404);
    await gw.http().get('/admin/v1/channels').expect(401);
  });

  it('a channel with maxInFlight takes no more open tasks than that', async () => {
    const gw = await gateway([axChannel('ax-small', { maxInFlight: 3, priority: 1 }), axChannel('ax-big')]);
    const acct = await account(gw);
    expect(await createMany(gw, acct, 10)).toEqual(Array(10).fill(200));
    expect(await createsByChannel(gw)).toEqual({ 'ax-small': 3, 'ax-big': 7 });
  });

  it('a channel disabled through the admin API of one instance takes no new task on either within 1 s', async () => {
    const onPostgres = (process.env.DATABASE_URL ?? '').startsWith('postgres');
    const shared: Record<string, string> = onPostgres
      ? {}
      : { DATABASE_URL: `sqlite:${join(channelsDir(), 'gateway.sqlite')}` };
    const channels = [axChannel('ax-a'), axChannel('ax-b')];
    const a = await startGateway({ channels, env: { ...ENV, ...shared } });
    open.push(a);
    const b = await startGateway({ channels, env: { ...ENV, ...shared }, keepData: true });
    open.push(b);
    const acct = await account(a);
    await a.admin.patch('/admin/v1/channels/ax-a', { enabled: false }).expect(200, /"enabled":false/);
    await new Promise((r) => setTimeout(r, 1000));
    for (const gw of [a, b]) expect(await createMany(gw, acct, 10)).toEqual(Array(10).fill(200));
    expect(await createsByChannel(b)).toEqual({ 'ax-a': 0, 'ax-b': 20 });
    const listed = (await b.admin.get('/admin/v1/channels').expect(200)).body.data[0];
    expect(listed).toMatchObject({ id: 'ax-a', enabled: false });
    // An instance started later (or a restart) reads the change from the database.
    const c = await startGateway({ channels, env: { ...ENV, ...shared }, keepData: true });
    open.push(c);
    expect((await c.admin.get('/admin/v1/channels').expect(200)).body.data[0]).toMatchObject({ enabled: false });

    // Enabled again, with a weight: both instances follow.
    await b.admin.patch('/admin/v1/channels/ax-a', { enabled: true, weight: 3 }).expect(200);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await createMany(a, acct, 8)).toEqual(Array(8).fill(200));
    expect(await createsByChannel(a)).toEqual({ 'ax-a': 6, 'ax-b': 22 });
  });
});
