import { createServer, IncomingMessage, Server } from 'http';
import { AddressInfo } from 'net';
import { DataSource } from 'typeorm';
import { simulatorChannels } from '../../src/bootstrap/resolve-channels';
import { ResultFileEntity } from '../../src/core/result-keeping/result-file.entity';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator';
import { UpstreamChannel } from '../../src/upstream/upstream.types';
import { AdminClient, Harness, TestAccount, startGateway } from '../support/gateway-harness';
import { FAST_ENV, bearer, eventually } from '../support/simulated-gateway';
import { SwitchableUpstream, startSwitchableUpstream } from '../support/switchable-upstream';

jest.setTimeout(60_000);

/**
 * The admin routes behind the console's controls: a channel's tier, a credential check that costs
 * nothing at the vendor, the model catalogue, account names and failure reasons in the task list,
 * sending a task's callback again and keeping its result files again; each change on the audit trail.
 */
const CREATE = '/vd/ent/v2/reference2video';
const body = (extra: Record<string, unknown> = {}) => ({
  model: 'vdq3',
  subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
  prompt: '@cat plays',
  ...extra,
});

/** Answers 204 to every request and remembers its path. */
async function startReceiver(): Promise<{ server: Server; base: string; received: string[] }> {
  const received: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on('end', () => {
      received.push(req.url ?? '');
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

describe('admin: the routes behind the console’s controls', () => {
  let sim: RunningSimulator;
  let front: SwitchableUpstream;
  let gw: Harness;
  let acct: TestAccount;
  let viewer: AdminClient;
  let operator: AdminClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    sim = await startSimulator({ taskMs: 150 });
    receiver = await startReceiver();
    const [vd] = simulatorChannels(sim, ['vd']);
    front = await startSwitchableUpstream(vd.baseUrl);
    const channels: UpstreamChannel[] = [
      ...simulatorChannels(sim),
      { ...vd, id: 'vd-second' },
      // Takes no new task (weight 0): only the credential check reaches it.
      { ...vd, id: 'vd-fronted', baseUrl: front.baseUrl, weight: 0 },
    ];
    gw = await startGateway({ channels, env: FAST_ENV });
    const created = await gw.admin.post('/admin/v1/accounts', { name: 'Named Studio', balance: 100_000_000 });
    acct = { id: created.body.id, key: '', keyId: '' };
    await gw.admin
      .put(`/admin/v1/accounts/${acct.id}/models`, { models: [{ model: 'vdq3' }, { model: 'kl-v1' }] })
      .expect(200);
    acct.key = (await gw.admin.post(`/admin/v1/accounts/${acct.id}/keys`, { name: 'k' }).expect(201)).body.key;
    viewer = (await gw.admin.operator('viewer')).client;
    operator = (await gw.admin.operator('operator')).client;
  });
  afterAll(async () => {
    await gw?.close();
    await front?.close();
    await sim?.close();
    await new Promise<void>((r) => receiver.server.close(() => r()));
  });

  const create = (extra: Record<string, unknown> = {}) =>
    gw
      .http()
      .post(CREATE)
      .set(...bearer(acct))
      .send(body(extra))
      .expect(200)
      .then((res) => res.body.task_id as string);
  const detail = (id: string) => gw.admin.get(`/admin/v1/tasks/${id}`).expect(200);
  const ended = (id: string) =>
    eventually(async () => (['succeeded', 'failed'].includes((await detail(id)).body.status) ? true : null), 10_000);
  const audit = async (action: string, targetId: string) =>
    (await gw.admin.get(`/admin/v1/audit?action=${action}&target_id=${targetId}`).expect(200)).body.items;

  describe('channels: tier and credential check', () => {
    const channel = async (id: string) =>
      ((await gw.admin.get('/admin/v1/channels').expect(200)).body.data as Array<Record<string, unknown>>).find(
        (c) => c.id === id,
      )!;

    it('an admin moves a channel to a higher tier: new tasks go there, and the change is audited', async () => {
      const res = await gw.admin.patch('/admin/v1/channels/vd-second', { priority: 5 }).expect(200);
      expect(res.body).toMatchObject({ id: 'vd-second', priority: 5 });
      expect(await channel('vd-second')).toMatchObject({ priority: 5 });
      for (let i = 0; i < 3; i++) expect((await detail(await create())).body.channel_id).toBe('vd-second');
      const [entry] = await audit('channel.update', 'vd-second');
      expect(entry).toMatchObject({ before: { priority: 0 }, after: { priority: 5 } });

      await gw.admin.patch('/admin/v1/channels/vd-second', { priority: 0 }).expect(200);
      const channels = new Set<string>();
      for (let i = 0; i < 4; i++) channels.add((await detail(await create())).body.channel_id);
      expect([...channels].sort()).toEqual(['vd-default', 'vd-second']);
    });

    it("a tier is an admin's: an operator is refused naming priority; a bad one is a 400 naming it", async () => {
      const refused = await operator.patch('/admin/v1/channels/vd-second', { priority: 2 }).expect(403);
      expect(refused.body.error).toMatchObject({ code: 'permission_denied', param: 'priority' });
      for (const priority of [1.5, 'high', 5000])
        expect((await gw.admin.patch('/admin/v1/channels/vd-second', { priority }).expect(400)).body.error.param).toBe(
          'priority',
        );
      expect(await channel('vd-second')).toMatchObject({ priority: 0 });
    });

    it('checks a credential with a query of a task that does not exist: accepted, nothing created', async () => {
      front.mode = 'proxy';
      const before = front.posts;
      const res = await operator.post('/admin/v1/channels/vd-fronted/check', {}).expect(200);
      expect(res.body).toMatchObject({
        channel_id: 'vd-fronted',
        credential: 'accepted',
        accepted: true,
        http_status: 404,
        message: expect.any(String),
        latency_ms: expect.any(Number),
        checked_at: expect.any(String),
      });
      expect(front.posts).toBe(before);
    });

    it("a refused credential: the vendor's status, code and message", async () => {
      front.mode = 'revoked';
      const res = await operator.post('/admin/v1/channels/vd-fronted/check', {}).expect(200);
      expect(res.body).toMatchObject({
        credential: 'refused',
        accepted: false,
        http_status: 401,
        code: 'Unauthorized',
      });
      expect(res.body.message).toEqual(expect.any(String));
      front.mode = 'proxy';
    });

    it('no verdict when the upstream does not answer properly: unknown, with what happened', async () => {
      front.mode = '503';
      const res = await operator.post('/admin/v1/channels/vd-fronted/check', {}).expect(200);
      expect(res.body).toMatchObject({ credential: 'unknown', accepted: null, http_status: 503 });
      front.mode = 'proxy';
    });

    it('404 for an unknown channel; a viewer may not check', async () => {
      await gw.admin.post('/admin/v1/channels/nope/check', {}).expect(404);
      const refused = await viewer.post('/admin/v1/channels/vd-default/check', {}).expect(403);
      expect(refused.body.error.code).toBe('permission_denied');
    });
  });

  describe('the model catalogue', () => {
    it('lists every model with its family and capabilities, for any role', async () => {
      const res = await viewer.get('/admin/v1/models').expect(200);
      const vdq3 = res.body.data.find((m: { name: string }) => m.name === 'vdq3');
      expect(vdq3).toEqual({ name: 'vdq3', family: 'vd', capabilities: expect.arrayContaining(['reference2video']) });
      const families = res.body.data.map((m: { family: string }) => m.family);
      expect(families).toEqual([...families].sort());
      expect(new Set(families)).toEqual(new Set(['ax', 'kl', 'vd']));
    });

    it('takes no query', async () => {
      expect((await gw.admin.get('/admin/v1/models?family=vd').expect(400)).body.error.param).toBe('family');
    });
  });

  describe('prices', () => {
    it('a table sent without a version is stored as the next; one that leaves a model out names it', async () => {
      const current = (await gw.admin.get('/admin/v1/prices').expect(200)).body;
      const { version, ...unnumbered } = current;
      const saved = await gw.admin.put('/admin/v1/prices', unnumbered).expect(200);
      expect(saved.body.version).toBe(version + 1);
      const partial = await gw.admin.put('/admin/v1/prices', { ...unnumbered, models: { vdq3: current.models.vdq3 } });
      expect(partial.status).toBe(400);
      expect(partial.body.error.message).toMatch(/^models\.[\w.-]+ has no price entry\.$/);
      expect(partial.body.error.message).not.toContain('version');
    });
  });

  describe('the task list', () => {
    it("shows each task's account name, and a failed task's code and reason", async () => {
      const failed = await create({ prompt: '@cat sim:fail' });
      await ended(failed);
      const list = await gw.admin.get(`/admin/v1/tasks?account_id=${acct.id}&status=failed`).expect(200);
      const row = list.body.items.find((t: { id: string }) => t.id === failed);
      expect(row).toMatchObject({ account_id: acct.id, account_name: 'Named Studio', status: 'failed' });
      // The simulator's family sends a code and no message: the reason is its code (the console words it).
      expect(row).toMatchObject({ failure_code: 'CreationPolicyViolation', failure_reason: 'CreationPolicyViolation' });
      expect((await detail(failed)).body).toMatchObject({
        account_name: 'Named Studio',
        failure_code: row.failure_code,
        failure_reason: row.failure_reason,
      });
    });
  });

  describe('a voice task', () => {
    it('shows the voice it made, with its trial audio, where a video task shows its videos', async () => {
      const created = await gw
        .http()
        .post('/kl/v1/general/custom-voices')
        .set(...bearer(acct))
        .send({ voice_name: 'Narrator', voice_url: 'https://example.com/a/voice.mp3' })
        .expect(200);
      const id = created.body.data.task_id as string;
      await ended(id);
      const task = (await detail(id)).body;
      expect(task.videos).toEqual([]);
      expect(task.voices).toEqual([
        { voice_id: expect.any(String), voice_name: expect.any(String), trial_url: expect.stringMatching(/^http/) },
      ]);
    });
  });

  describe('sending a callback again', () => {
    it('queues a new delivery of the ended task, delivered, and audited', async () => {
      const id = await create({ callback_url: `${receiver.base}/hook` });
      await eventually(async () => {
        const res = await gw.admin.get(`/admin/v1/tasks/${id}/callbacks`).expect(200);
        return res.body.deliveries[0]?.status === 'delivered';
      }, 10_000);
      const sent = receiver.received.length;
      const res = await operator.post(`/admin/v1/tasks/${id}/callbacks/redeliver`, {}).expect(200);
      expect(res.body.deliveries).toHaveLength(2);
      await eventually(async () => {
        const after = await gw.admin.get(`/admin/v1/tasks/${id}/callbacks`).expect(200);
        return after.body.deliveries.every((d: { status: string }) => d.status === 'delivered');
      }, 10_000);
      expect(receiver.received.length).toBe(sent + 1);
      const [entry] = await audit('task.callback_redeliver', id);
      expect(entry).toMatchObject({
        target: { type: 'task', id },
        after: { callback_url: `${receiver.base}/hook`, status: 'succeeded' },
      });
    });

    it('409 without a callback URL, or before the task ends; 404 for no task; a viewer may not', async () => {
      const plain = await create();
      const none = await gw.admin.post(`/admin/v1/tasks/${plain}/callbacks/redeliver`, {}).expect(409);
      expect(none.body.error.message).toContain('no callback URL');
      const slow = await create({ prompt: '@cat sim:slow', callback_url: `${receiver.base}/slow` });
      const early = await gw.admin.post(`/admin/v1/tasks/${slow}/callbacks/redeliver`, {}).expect(409);
      expect(early.body.error.message).toContain('has not ended');
      await gw.admin.post('/admin/v1/tasks/task_nope/callbacks/redeliver', {}).expect(404);
      await viewer.post(`/admin/v1/tasks/${plain}/callbacks/redeliver`, {}).expect(403);
      expect(await audit('task.callback_redeliver', plain)).toEqual([]);
    });
  });

  describe('keeping a result again', () => {
    const files = async (id: string) =>
      (await gw.admin.get(`/admin/v1/tasks/${id}/results`).expect(200)).body.files as Array<{
        slot: string;
        status: string;
      }>;

    it('queues a removed file anew; it is stored again, and the change is audited', async () => {
      const id = await create();
      await eventually(
        async () => (await files(id)).length > 0 && (await files(id)).every((f) => f.status === 'stored'),
        15_000,
      );
      // As retention leaves it: removed, no copy.
      await gw.app
        .get(DataSource)
        .getRepository(ResultFileEntity)
        .update({ taskId: id }, { status: 'removed', storageKey: null, expiresAt: null });
      const res = await operator.post(`/admin/v1/tasks/${id}/results/keep`, {}).expect(200);
      expect(res.body.files.every((f: { status: string }) => ['pending', 'stored'].includes(f.status))).toBe(true);
      await eventually(async () => (await files(id)).every((f) => f.status === 'stored'), 15_000);
      const [entry] = await audit('task.results_keep', id);
      expect(entry.before).toEqual(Object.fromEntries((await files(id)).map((f) => [f.slot, 'removed'])));
    });

    it('409 when every file is kept already, or the task did not succeed; 404 for no task; a viewer may not', async () => {
      const id = await create();
      await eventually(
        async () => (await files(id)).length > 0 && (await files(id)).every((f) => f.status === 'stored'),
        15_000,
      );
      const kept = await gw.admin.post(`/admin/v1/tasks/${id}/results/keep`, {}).expect(409);
      expect(kept.body.error.message).toContain('kept already');
      const failed = await create({ prompt: '@cat sim:fail' });
      await ended(failed);
      const notOk = await gw.admin.post(`/admin/v1/tasks/${failed}/results/keep`, {}).expect(409);
      expect(notOk.body.error.message).toContain('Only a succeeded task');
      await gw.admin.post('/admin/v1/tasks/task_nope/results/keep', {}).expect(404);
      await viewer.post(`/admin/v1/tasks/${id}/results/keep`, {}).expect(403);
      expect(await audit('task.results_keep', id)).toEqual([]);
    });
  });
});
