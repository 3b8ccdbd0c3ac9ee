import { join } from 'path';
import { TasksRepository } from '../../src/core/tasks/tasks.repository';
import { startSimulator } from '../../src/simulator/simulator';
import { TestAccount } from '../support/gateway-harness';
import { reservePort } from '../support/ports';
import { GATEWAY_RESULT_URL } from '../support/results';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';
import { tempDirs } from '../support/temp-dirs';

const AX_CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const axBody = (prompt: string) => ({
  model: 'wx2.7-r2v',
  input: { prompt, media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
  parameters: { resolution: '720P', duration: 5 },
});

const VD_CREATE = '/vd/ent/v2/reference2video';
const vdBody = {
  model: 'vdq3',
  subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
  prompt: '@cat runs',
};

/** A gateway listening on the port its `PUBLIC_BASE_URL` names, so the simulator's callbacks reach it. */
async function gatewayTakingCallbacks(options: { taskMs?: number; env: Record<string, string> }) {
  const { port, release } = await reservePort();
  const gw = await startSimulatedGateway({
    taskMs: options.taskMs,
    env: { PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...options.env },
  });
  await release();
  await gw.app.listen(port, '127.0.0.1');
  return { gw, port };
}

function createVdTask(gw: SimulatedGateway, acct: TestAccount) {
  return gw
    .http()
    .post(VD_CREATE)
    .set(...bearer(acct))
    .send(vdBody)
    .expect(200);
}

async function accountState(gw: SimulatedGateway, id: string) {
  return (await gw.admin.get(`/admin/v1/accounts/${id}`).expect(200)).body as {
    balance: number;
    held: number;
    in_flight_tasks: number;
  };
}

const restartDir = tempDirs('gw-restart-');

/** The SQLite file both gateway lives share (PostgreSQL runs keep their one database). */
function sharedDatabaseEnv(): Record<string, string> {
  if (process.env.DATABASE_URL) return {};
  return { DATABASE_URL: `sqlite:${join(restartDir(), 'gateway.sqlite')}` };
}

describe('task engine: failure paths and lessons from the field', () => {
  it('an upstream that hangs: 503 after the timeout, then the record is reconciled and nothing is charged', async () => {
    const gw = await startSimulatedGateway({ env: { UPSTREAM_TIMEOUT_MS: '300' } });
    try {
      const acct = await gw.admin.account({ models: ['wx2.7-r2v'], balance: 1_000_000 });
      const res = await gw
        .http()
        .post(AX_CREATE)
        .set(...bearer(acct))
        .send(axBody('Image 1 sim:hang'))
        .expect(503);
      expect(res.body).toMatchObject({ code: 'ServiceUnavailable', error: { code: 'service_unavailable' } });
      await eventually(async () => (await accountState(gw, acct.id)).held === 0);
      const state = await accountState(gw, acct.id);
      expect(state).toMatchObject({ balance: 1_000_000, held: 0, in_flight_tasks: 0 });
      expect((await gw.admin.get('/admin/v1/ledger/verify')).body.ok).toBe(true);
    } finally {
      await gw.close();
    }
  });

  it('a restart while a task is being created: the record survives and is reconciled, not lost', async () => {
    const sim = await startSimulator({ taskMs: 150 });
    const db = sharedDatabaseEnv();
    let acct: TestAccount;
    let taskId: string;
    const first = await startSimulatedGateway({
      sim,
      env: { ...db, UPSTREAM_TIMEOUT_MS: '300', WORKERS_ENABLED: 'false' },
    });
    try {
      acct = await first.admin.account({ models: ['wx2.7-r2v'], balance: 1_000_000 });
      await first
        .http()
        .post(AX_CREATE)
        .set(...bearer(acct))
        .send(axBody('Image 1 sim:hang'))
        .expect(503);
      const held = await accountState(first, acct.id);
      expect(held.held).toBeGreaterThan(0); // the hold stays while the outcome is unknown
      const open = await first.app
        .get(TasksRepository)
        .list({ accountId: acct.id, family: 'ax', action: 'reference2video', offset: 0, limit: 10 });
      taskId = open.items[0].id;
      expect(open.items[0].phase).toBe('submitting');
    } finally {
      await first.close(); // the process "dies" with the task unconfirmed
    }
    const second = await startSimulatedGateway({ sim, keepData: true, env: db });
    try {
      const task = await eventually(async () => {
        const t = await second.app.get(TasksRepository).findById(taskId);
        return t && t.phase !== 'submitting' ? t : null;
      });
      expect(task).toMatchObject({ phase: 'failed', failureCode: 'creation_unconfirmed', billingState: 'released' });
      expect(await accountState(second, acct.id)).toMatchObject({ balance: 1_000_000, held: 0, in_flight_tasks: 0 });
      expect((await second.admin.get('/admin/v1/ledger/verify')).body.ok).toBe(true);
    } finally {
      await second.close();
      await sim.close();
    }
  });

  it('an upstream callback makes the gateway sync that task at once', async () => {
    // Polling so slow that only the callback can bring the news in time.
    const { gw, port } = await gatewayTakingCallbacks({
      env: { SYNC_POLL_BASE_MS: '60000', SYNC_POLL_MAX_MS: '60000' },
    });
    try {
      const acct = await gw.admin.account({ models: ['vdq3'] });
      const res = await createVdTask(gw, acct);
      const sent = gw.sim.requests.filter((r) => r.family === 'vd' && r.method === 'POST').at(-1)?.body as {
        callback_url?: string;
      };
      expect(sent.callback_url).toMatch(
        new RegExp(`^http://127\\.0\\.0\\.1:${port}/callbacks/upstream/[A-Za-z0-9_-]{20,}$`),
      );
      const done = await eventually(async () => {
        const q = await gw
          .http()
          .get(`/vd/ent/v2/tasks/${res.body.task_id}/creations`)
          .set(...bearer(acct))
          .expect(200);
        return q.body.state === 'success' ? q.body : null;
      });
      expect(done.creations).toHaveLength(1);
      // A forged callback token is refused without revealing anything.
      await gw
        .http()
        .post('/callbacks/upstream/not-a-real-token-000000')
        .set('Content-Type', 'application/json')
        .send({})
        .expect(404);
    } finally {
      await gw.close();
    }
  });

  it('an upstream callback that arrives before the create’s answer leaves the task to its request: created, charged', async () => {
    const { gw } = await gatewayTakingCallbacks({ taskMs: 100, env: { UPSTREAM_TIMEOUT_MS: '3000' } });
    try {
      const acct = await gw.admin.account({ models: ['vdq3'], balance: 1_000_000 });
      // The upstream creates the task, ends it after 100 ms and calls back then, but answers the create after 800 ms.
      gw.sim.setChaos({ rate: 1, kinds: ['slow'], slowMs: 800 });
      const res = await createVdTask(gw, acct);
      gw.sim.setChaos(null);
      const task = await eventually(async () => {
        const t = await gw.app.get(TasksRepository).findById(res.body.task_id);
        return t && t.billingState !== 'held' ? t : null;
      });
      expect(task).toMatchObject({ phase: 'succeeded', billingState: 'settled', failureCode: null });
      expect(task.finalCharge).toBeGreaterThan(0);
      expect((await accountState(gw, acct.id)).balance).toBe(1_000_000 - Number(task.finalCharge));
      expect((await gw.admin.get('/admin/v1/ledger/verify')).body.ok).toBe(true);
    } finally {
      await gw.close();
    }
  });

  it('a task past its deadline fails with the same terminal state in every field', async () => {
    const gw = await startSimulatedGateway({ taskMs: 600, env: { TASK_DEADLINE_MS: '1000' } });
    try {
      const acct = await gw.admin.account({ models: ['wx2.7-r2v'], balance: 1_000_000 });
      const res = await gw
        .http()
        .post(AX_CREATE)
        .set(...bearer(acct))
        .send(axBody('Image 1 sim:slow'))
        .expect(200);
      const id = res.body.output.task_id;
      const done = await eventually(async () => {
        const q = await gw
          .http()
          .get(`/ax/api/v1/tasks/${id}`)
          .set(...bearer(acct))
          .expect(200);
        return q.body.output.task_status !== 'RUNNING' && q.body.output.task_status !== 'PENDING' ? q.body : null;
      });
      expect(done.output).toMatchObject({
        task_status: 'FAILED',
        code: 'deadline_exceeded',
        end_time: expect.any(String),
      });
      expect(done.output.video_url).toBeUndefined();
      const stored = await gw.app.get(TasksRepository).findById(id);
      // The upstream's last word was still "in progress"; nothing the caller sees may say so.
      expect((stored?.lastNative as { output: { task_status: string } }).output.task_status).toMatch(
        /^(PENDING|RUNNING)$/,
      );
      expect(stored).toMatchObject({
        phase: 'failed',
        nativeStatus: 'FAILED',
        outerStatus: 'FAILURE',
        syncDueAt: null,
        billingState: 'released',
      });
      expect(await accountState(gw, acct.id)).toMatchObject({ balance: 1_000_000, held: 0 });
    } finally {
      await gw.close();
    }
  });

  it('parses upstream payloads leniently: numbers as strings and unknown statuses never stall a task', async () => {
    const gw = await startSimulatedGateway({ taskMs: 60000 });
    try {
      const acct = await gw.admin.account({ models: ['wx2.7-r2v'] });
      const res = await gw
        .http()
        .post(AX_CREATE)
        .set(...bearer(acct))
        .send(axBody('Image 1 lenient'))
        .expect(200);
      const id = res.body.output.task_id;
      const upstreamId = (await gw.app.get(TasksRepository).findById(id))!.upstreamTaskId!;
      gw.sim.forceState('ax', upstreamId, { output: { task_status: 'REPROCESSING' } });
      await eventually(
        async () =>
          (
            await gw
              .http()
              .get(`/ax/api/v1/tasks/${id}`)
              .set(...bearer(acct))
          ).body.output.task_status === 'UNKNOWN',
      );
      gw.sim.forceState('ax', upstreamId, {
        output: {
          task_status: 'SUCCEEDED',
          video_url: 'https://cdn.example.com/v.mp4',
          end_time: '2026-01-01 00:00:05.000',
        },
        usage: { duration: '9.0', output_video_duration: '5', video_count: '1' },
      });
      const done = await eventually(async () => {
        const q = await gw
          .http()
          .get(`/ax/api/v1/tasks/${id}`)
          .set(...bearer(acct))
          .expect(200);
        return q.body.output.task_status === 'SUCCEEDED' ? q.body : null;
      });
      // The client sees the gateway's URL for it; the record keeps the upstream's, as reported.
      expect(done.output.video_url).toMatch(GATEWAY_RESULT_URL);
      const stored = await gw.app.get(TasksRepository).findById(id);
      expect(stored?.result?.videos[0].url).toBe('https://cdn.example.com/v.mp4');
      expect(stored?.result?.videos[0].durationSeconds).toBe(5);
      expect(stored?.billingState).toBe('settled');
    } finally {
      await gw.close();
    }
  });

  it('a customer’s own rejected requests never open the channel’s breaker', async () => {
    const gw = await startSimulatedGateway();
    try {
      const acct = await gw.admin.account({ models: ['wx2.7-r2v'] });
      for (let i = 0; i < 8; i++)
        await gw
          .http()
          .post(AX_CREATE)
          .set(...bearer(acct))
          .send(axBody('Image 1 sim:reject'))
          .expect(400);
      await gw
        .http()
        .post(AX_CREATE)
        .set(...bearer(acct))
        .send(axBody('Image 1 fine'))
        .expect(200);
    } finally {
      await gw.close();
    }
  });

  it('upstream faults do open the breaker, which then fails fast with 503', async () => {
    const gw = await startSimulatedGateway();
    try {
      const acct = await gw.admin.account({ models: ['wx2.7-r2v'] });
      for (let i = 0; i < 5; i++)
        await gw
          .http()
          .post(AX_CREATE)
          .set(...bearer(acct))
          .send(axBody('Image 1 sim:error500'))
          .expect(503);
      const posts = () => gw.sim.requests.filter((r) => r.family === 'ax' && r.method === 'POST').length;
      const before = posts();
      await gw
        .http()
        .post(AX_CREATE)
        .set(...bearer(acct))
        .send(axBody('Image 1 fine'))
        .expect(503);
      expect(posts()).toBe(before);
    } finally {
      await gw.close();
    }
  });
});
