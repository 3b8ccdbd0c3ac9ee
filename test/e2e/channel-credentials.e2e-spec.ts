import { Logger } from '@nestjs/common';
import { simulatorChannels } from '../../src/bootstrap/resolve-channels';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator';
import { UpstreamChannel } from '../../src/upstream/upstream.types';
import { Harness, TestAccount, startGateway } from '../support/gateway-harness';
import { FAST_ENV, bearer, eventually } from '../support/simulated-gateway';
import { SwitchableUpstream, startSwitchableUpstream } from '../support/switchable-upstream';

/**
 * An upstream that refuses the gateway's own credential (each vendor says it its own way: the
 * simulator's kl 401 code 1000, ax 401 `InvalidApiKey`, vd 401 `Unauthorized`) is
 * the gateway's fault, never the client's: creates go to another channel or get a 503, the channel
 * is shown unhealthy with the reason, and a task whose queries are refused waits.
 */
interface FamilyCase {
  id: string;
  models: string[];
  createPath: string;
  body: Record<string, unknown>;
  taskId(body: Record<string, any>): string;
  queryPath(id: string): string;
  finished(body: Record<string, any>): boolean;
  failed(body: Record<string, any>): boolean;
  /** The vendor's own code for a refused key, as the simulator answers it. */
  refusal: string;
  /** The family's native fields of a gateway 503. */
  native503: Record<string, unknown>;
}

const CASES: FamilyCase[] = [
  {
    id: 'kl',
    models: ['kl-v1', 'kl-v1-6'],
    createPath: '/kl/v1/general/custom-voices',
    body: { voice_name: 'Narrator', voice_url: 'https://example.com/a/voice.mp3' },
    taskId: (b) => b.data.task_id,
    queryPath: (id) => `/kl/v1/general/custom-voices/${id}`,
    finished: (b) => b.data.task_status === 'succeed',
    failed: (b) => b.data.task_status === 'failed',
    refusal: '1000',
    native503: { code: 5001 },
  },
  {
    id: 'ax',
    models: ['wx2.7-r2v'],
    createPath: '/ax/api/v1/services/aigc/video-generation/video-synthesis',
    body: {
      model: 'wx2.7-r2v',
      input: { prompt: 'Image 1 walks', media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
    },
    taskId: (b) => b.output.task_id,
    queryPath: (id) => `/ax/api/v1/tasks/${id}`,
    finished: (b) => b.output.task_status === 'SUCCEEDED',
    failed: (b) => b.output.task_status === 'FAILED',
    refusal: 'InvalidApiKey',
    native503: { code: 'ServiceUnavailable' },
  },
  {
    id: 'vd',
    models: ['vdq3'],
    createPath: '/vd/ent/v2/reference2video',
    body: { model: 'vdq3', subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }], prompt: '@cat plays' },
    taskId: (b) => b.task_id,
    queryPath: (id) => `/vd/ent/v2/tasks/${id}/creations`,
    finished: (b) => b.state === 'success',
    failed: (b) => b.state === 'failed',
    refusal: 'Unauthorized',
    native503: { code: 503, reason: 'InternalServiceFailure' },
  },
];

describe.each(CASES)("family $id: the upstream refuses the gateway's own credential", (fc) => {
  jest.setTimeout(60_000);
  let sim: RunningSimulator;
  const open: Array<{ close(): Promise<void> }> = [];
  let errorLines: Array<[Record<string, unknown>, string]>;
  let spy: jest.SpyInstance;

  beforeAll(async () => {
    sim = await startSimulator({ taskMs: 300 });
  });
  beforeEach(() => {
    errorLines = [];
    spy = jest.spyOn(Logger.prototype, 'error').mockImplementation((fields: unknown, message: unknown) => {
      errorLines.push([fields as Record<string, unknown>, String(message)]);
    });
  });
  afterEach(async () => {
    spy.mockRestore();
    for (const item of open.splice(0).reverse()) await item.close();
  });
  afterAll(async () => {
    await sim.close();
  });

  /** A channel of the simulator behind a switchable front, so its key can be refused on demand. */
  async function channel(id: string, extra: Partial<UpstreamChannel> = {}) {
    const front: SwitchableUpstream = await startSwitchableUpstream(sim.endpoints[fc.id].baseUrl);
    open.push(front);
    return { front, channel: { ...simulatorChannels(sim, [fc.id])[0], id, baseUrl: front.baseUrl, ...extra } };
  }
  async function gateway(channels: UpstreamChannel[], env: Record<string, string> = {}): Promise<Harness> {
    const gw = await startGateway({ channels, env: { ...FAST_ENV, ...env } });
    open.push(gw);
    return gw;
  }
  const account = (gw: Harness) =>
    gw.admin.account({ models: fc.models, max_concurrent_tasks: 1000, rate_limit_rpm: 100_000 });
  const create = (gw: Harness, acct: TestAccount) =>
    gw
      .http()
      .post(fc.createPath)
      .set(...bearer(acct))
      .send(fc.body);
  const query = (gw: Harness, acct: TestAccount, id: string) =>
    gw
      .http()
      .get(fc.queryPath(id))
      .set(...bearer(acct))
      .expect(200);
  const view = async (gw: Harness, id: string) =>
    ((await gw.admin.get('/admin/v1/channels').expect(200)).body.data as Array<Record<string, unknown>>).find(
      (c) => c.id === id,
    )!;

  it('creates go to the other channel; the refused one is unhealthy with the reason, named by an ERROR line', async () => {
    const bad = await channel(`${fc.id}-badkey`, { priority: 1 });
    bad.front.mode = 'revoked';
    const good = await channel(`${fc.id}-good`);
    const gw = await gateway([bad.channel, good.channel], { WORKERS_ENABLED: 'false' });
    const acct = await account(gw);
    for (let i = 0; i < 3; i++) await create(gw, acct).expect(200);
    // Tried once, then left alone for its cool-down.
    expect(bad.front.posts).toBe(1);
    expect(good.front.posts).toBe(3);
    expect(await view(gw, bad.channel.id)).toMatchObject({
      healthy: false,
      unhealthy_reason: expect.stringContaining(fc.refusal),
      unhealthy_since: expect.any(String),
      in_flight: 0,
      breaker: 'closed',
    });
    expect(await view(gw, good.channel.id)).toMatchObject({ healthy: true, unhealthy_reason: null, in_flight: 3 });
    const named = errorLines.filter(([fields]) => fields.channel === bad.channel.id);
    expect(named).toHaveLength(1);
    expect(named[0][1]).toContain(bad.channel.id);
    expect(named[0][0]).toMatchObject({ family: fc.id, status: 401, code: expect.anything() });
    expect(String(named[0][0].code)).toBe(fc.refusal);
  });

  it("with no other channel: 503 service_unavailable in the family's words, never the vendor's key error", async () => {
    const bad = await channel(`${fc.id}-badkey`);
    bad.front.mode = 'revoked';
    const gw = await gateway([bad.channel], { WORKERS_ENABLED: 'false' });
    const acct = await account(gw);
    for (let i = 0; i < 2; i++) {
      const res = await create(gw, acct).expect(503);
      expect(res.body).toMatchObject({
        error: { code: 'service_unavailable', type: expect.any(String) },
        ...fc.native503,
      });
      expect(JSON.stringify(res.body)).not.toContain(fc.refusal === '1000' ? 'Authentication' : fc.refusal);
      expect(JSON.stringify(res.body)).not.toMatch(/invalid_request|api[ -]?key/i);
    }
    expect(bad.front.posts).toBe(1);
    expect(await view(gw, bad.channel.id)).toMatchObject({ healthy: false, in_flight: 0 });
    const money = (await gw.admin.get(`/admin/v1/accounts/${acct.id}`).expect(200)).body;
    expect(money.held).toBe(0);
  });

  it('a task whose queries are refused waits, its channel unhealthy; once the key works again it finishes', async () => {
    const only = await channel(`${fc.id}-only`);
    const gw = await gateway([only.channel]);
    const acct = await account(gw);
    const created = await create(gw, acct).expect(200);
    only.front.mode = 'revoked';
    const id = fc.taskId(created.body);
    await eventually(async () => (await view(gw, only.channel.id)).healthy === false, 10_000);
    expect((await view(gw, only.channel.id)).unhealthy_reason).toEqual(expect.stringContaining(fc.refusal));
    // Many refused polls later (the upstream finished it long ago), the task has not failed.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const waiting = (await query(gw, acct, id)).body;
    expect(fc.failed(waiting) || fc.finished(waiting)).toBe(false);
    only.front.mode = 'proxy';
    await eventually(async () => fc.finished((await query(gw, acct, id)).body), 15_000);
    expect(await view(gw, only.channel.id)).toMatchObject({ healthy: true, unhealthy_reason: null });
  });
});
