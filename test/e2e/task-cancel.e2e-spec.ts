import { AuditTrail } from '../../src/core/audit/audit.service';
import { TasksRepository } from '../../src/core/tasks/tasks.repository';
import { CallbackReceiver, startCallbackReceiver } from '../support/callback-receiver';
import { TestAccount } from '../support/gateway-harness';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';

/**
 * Cancelling a task, by its owner (`POST /gateway/v1/tasks/{id}/cancel`) or an operator
 * (`POST /admin/v1/tasks/{id}/cancel`), on every family through the simulator: where the vendor
 * still cancels it (ax and vd while queued) it ends cancelled, released, uncharged, with its
 * callback; where it cannot (kl has no cancel; ax and vd once running) 409 `cannot_cancel` and the
 * task goes on. A cancel and the upstream finishing at the same moment settle once.
 */
const AX_CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const VD_CREATE = '/vd/ent/v2/reference2video';
const KL_VOICES = '/kl/v1/general/custom-voices';
const KL_EDITING = '/kl/v1/videos/multi-elements';
const MODELS = ['wx2.7-r2v', 'vdq3', 'kl-v1', 'kl-v1-6'];
const BALANCE = 100_000_000;
/** Long enough that a task stays queued (cancellable) for the whole test unless a test moves it. */
const TASK_MS = 120_000;

const axBody = {
  model: 'wx2.7-r2v',
  input: { prompt: 'Image 1 walks', media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
  parameters: { resolution: '720P', duration: 5 },
};
const vdBody = (extra: Record<string, unknown> = {}) => ({
  model: 'vdq3',
  subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
  prompt: '@cat plays in the garden',
  ...extra,
});

describe('cancelling a task', () => {
  let gw: SimulatedGateway;
  let receiver: CallbackReceiver;
  let acct: TestAccount;

  beforeAll(async () => {
    gw = await startSimulatedGateway({ taskMs: TASK_MS });
    receiver = await startCallbackReceiver();
    acct = await gw.admin.account({ models: MODELS, balance: BALANCE });
  });
  afterAll(async () => {
    await gw.close();
    await receiver.close();
  });

  const post = (path: string, body: unknown, account: TestAccount = acct) =>
    gw
      .http()
      .post(path)
      .set(...bearer(account))
      .send(body as object);
  const get = (path: string, account: TestAccount = acct) =>
    gw
      .http()
      .get(path)
      .set(...bearer(account));
  const cancel = (taskId: string, account: TestAccount = acct) =>
    gw
      .http()
      .post(`/gateway/v1/tasks/${taskId}/cancel`)
      .set(...bearer(account));
  const createAx = async (account: TestAccount = acct) =>
    (await post(AX_CREATE, axBody, account).expect(200)).body.output.task_id as string;
  const createVd = async (extra: Record<string, unknown> = {}) =>
    (await post(VD_CREATE, vdBody(extra)).expect(200)).body.task_id as string;
  const record = async (taskId: string) => (await gw.app.get(TasksRepository).findById(taskId))!;
  const upstreamId = async (taskId: string) => (await record(taskId)).upstreamTaskId!;
  const money = async (account: TestAccount = acct) => {
    const body = (await gw.admin.get(`/admin/v1/accounts/${account.id}`).expect(200)).body;
    return { balance: body.balance as number, held: body.held as number, in_flight_tasks: body.in_flight_tasks };
  };
  const usageCount = async (taskId: string) => {
    const rows = (await gw.admin.get(`/admin/v1/usage?account_id=${acct.id}`).expect(200)).body.items;
    return (rows as Array<{ task_id: string }>).filter((row) => row.task_id === taskId).length;
  };
  const cancelCalls = (family: string) =>
    gw.sim.requests.filter((r) => r.family === family && r.method === 'POST' && r.path.endsWith('/cancel')).length;
  const expectLedgerOk = async () =>
    expect((await gw.admin.get('/admin/v1/ledger/verify').expect(200)).body).toMatchObject({
      ok: true,
      mismatches: [],
    });
  const ended = (taskId: string) =>
    eventually(async () => {
      const task = await record(taskId);
      return task.billingState !== 'held' ? task : null;
    }, 10_000);

  it('ax, queued: the vendor cancels it; CANCELED, released in full, nothing charged; a second cancel changes nothing', async () => {
    const before = await money();
    const taskId = await createAx();
    const held = await money();
    expect(held.held).toBeGreaterThan(0);
    const calls = cancelCalls('ax');

    const res = await cancel(taskId).expect(200);
    expect(res.body).toEqual({
      task_id: taskId,
      status: 'cancelled',
      already_cancelled: false,
      model: 'wx2.7-r2v',
      charged: 0,
      released: held.held,
      cancelled_at: expect.any(String),
    });
    expect(cancelCalls('ax')).toBe(calls + 1);
    const wire = gw.sim.requests.filter((r) => r.family === 'ax' && r.path.endsWith('/cancel')).at(-1)!;
    expect(wire.path).toBe(`/api/v1/tasks/${await upstreamId(taskId)}/cancel`);

    const query = await get(`/ax/api/v1/tasks/${taskId}`).expect(200);
    expect(query.body.output).toMatchObject({ task_id: taskId, task_status: 'CANCELED', end_time: expect.any(String) });
    expect(query.body.output.video_url).toBeUndefined();
    expect(await money()).toEqual(before);
    expect(await record(taskId)).toMatchObject({ phase: 'cancelled', billingState: 'released', finalCharge: null });
    expect(await usageCount(taskId)).toBe(0);

    const again = await cancel(taskId).expect(200);
    expect(again.body).toMatchObject({ task_id: taskId, status: 'cancelled', already_cancelled: true, charged: 0 });
    expect(cancelCalls('ax')).toBe(calls + 1);
    expect(await money()).toEqual(before);
    await expectLedgerOk();
  });

  it('ax, running: 409 cannot_cancel with the vendor’s reason, and the task goes on to be charged', async () => {
    const taskId = await createAx();
    const up = await upstreamId(taskId);
    gw.sim.forceState('ax', up, { output: { task_status: 'RUNNING' } });
    const res = await cancel(taskId).expect(409);
    expect(res.body.error).toMatchObject({ code: 'cannot_cancel', type: 'invalid_request_error', param: null });
    expect(res.body.error.message).toMatch(/cannot cancel the task in its current state: .*PENDING/);
    expect(await record(taskId)).toMatchObject({ phase: 'active', billingState: 'held' });

    gw.sim.forceState('ax', up, null);
    gw.sim.finishTask('ax', up);
    expect(await ended(taskId)).toMatchObject({ phase: 'succeeded', billingState: 'settled' });
    expect(await usageCount(taskId)).toBe(1);
    const late = await cancel(taskId).expect(409);
    expect(late.body.error).toMatchObject({ code: 'cannot_cancel', message: 'The task already ended: succeeded.' });
    await expectLedgerOk();
  });

  it('vd, queued: cancelled at the vendor; the query and the client callback say failed with UserCancelled', async () => {
    const before = await money();
    const taskId = await createVd({ callback_url: receiver.url });
    await cancel(taskId).expect(200);
    const wire = gw.sim.requests.filter((r) => r.family === 'vd' && r.path.endsWith('/cancel')).at(-1)!;
    expect(wire).toMatchObject({
      path: `/ent/v2/tasks/${await upstreamId(taskId)}/cancel`,
      body: { id: await upstreamId(taskId) },
    });

    const query = await get(`/vd/ent/v2/tasks/${taskId}/creations`).expect(200);
    expect(query.body).toMatchObject({ id: taskId, state: 'failed', err_code: 'UserCancelled', creations: [] });
    expect(await money()).toEqual(before);
    const hooks = await eventually(async () => {
      const mine = receiver.received.filter((r) => JSON.parse(r.body).id === taskId);
      return mine.length > 0 ? mine : null;
    });
    expect(JSON.parse(hooks[0].body)).toMatchObject({ id: taskId, state: 'failed', err_code: 'UserCancelled' });
    await expectLedgerOk();
  });

  it('vd, processing: 409 with the vendor’s words; the task untouched', async () => {
    const taskId = await createVd();
    gw.sim.forceState('vd', await upstreamId(taskId), { state: 'processing' });
    const res = await cancel(taskId).expect(409);
    expect(res.body.error.code).toBe('cannot_cancel');
    expect(res.body.error.message).toContain('task state is scheduled, can not cancel');
    expect(await record(taskId)).toMatchObject({ phase: 'active', billingState: 'held' });
  });

  it('kl voices and kl editing: the vendor has no cancel, so 409 saying so, no upstream call, the task goes on', async () => {
    const voice = (
      await post(KL_VOICES, { voice_name: 'Narrator', voice_url: 'https://example.com/v.mp3' }).expect(200)
    ).body.data.task_id as string;
    const session = (
      await post(`${KL_EDITING}/init-selection`, { video_url: 'https://example.com/clip.mp4' }).expect(200)
    ).body.data.session_id as string;
    const editing = (
      await post(KL_EDITING, {
        session_id: session,
        edit_mode: 'removal',
        prompt: 'Delete the hat from <<<video_1>>>',
      }).expect(200)
    ).body.data.task_id as string;
    const calls = gw.sim.requests.length;
    for (const taskId of [voice, editing]) {
      const res = await cancel(taskId).expect(409);
      expect(res.body.error).toMatchObject({
        code: 'cannot_cancel',
        message: "The task's upstream offers no way to cancel a task.",
      });
      expect(await record(taskId)).toMatchObject({ phase: 'active', billingState: 'held' });
    }
    expect(gw.sim.requests.slice(calls).filter((r) => r.path.includes('cancel'))).toEqual([]);
    const query = await get(`${KL_VOICES}/${voice}`).expect(200);
    expect(query.body.data.task_status).toBe('submitted');
  });

  it('a video created through /v1/videos: cancelled alike, the Video reads failed with the code cancelled, and it can be deleted', async () => {
    const created = await post('/v1/videos', {
      model: 'vdq3',
      prompt: 'A cat plays',
      seconds: '4',
      input_reference: { image_url: 'https://example.com/cat.png' },
    }).expect(200);
    const videoId = created.body.id as string;
    await cancel(videoId).expect(200);
    const video = await get(`/v1/videos/${videoId}`).expect(200);
    expect(video.body).toMatchObject({ id: videoId, status: 'failed', error: { code: 'cancelled' } });
    // A cancelled video is finished: its owner may delete it like any other.
    await gw
      .http()
      .delete(`/v1/videos/${videoId}`)
      .set(...bearer(acct))
      .expect(200);
    await get(`/v1/videos/${videoId}`).expect(404);
  });

  it('another account’s task, a key restricted to other models, an unknown ID: 404, nothing changed', async () => {
    const taskId = await createAx();
    const other = await gw.admin.account({ models: MODELS });
    const restricted = await gw.admin.post(`/admin/v1/accounts/${acct.id}/keys`, { models: ['vdq3'] }).expect(201);
    const restrictedKey: TestAccount = { id: acct.id, key: restricted.body.key, keyId: restricted.body.id };
    const calls = cancelCalls('ax');
    for (const account of [other, restrictedKey]) {
      const res = await cancel(taskId, account).expect(404);
      expect(res.body.error).toMatchObject({ code: 'not_found', message: 'Task not found.' });
    }
    await cancel('task_00000000000000000000000000').expect(404);
    expect(cancelCalls('ax')).toBe(calls);
    expect(await record(taskId)).toMatchObject({ phase: 'active', billingState: 'held' });
    await gw.http().post(`/gateway/v1/tasks/${taskId}/cancel`).expect(401);
  });

  it('an operator cancels from the admin API: the task detail answers, task.cancel is audited, a viewer is refused', async () => {
    const operator = await gw.admin.operator('operator', 'Otto Operator');
    const viewer = await gw.admin.operator('viewer', 'Vera Viewer');
    const taskId = await createAx();
    await viewer.client.post(`/admin/v1/tasks/${taskId}/cancel`, undefined).expect(403);
    expect(await record(taskId)).toMatchObject({ phase: 'active' });

    const res = await operator.client.post(`/admin/v1/tasks/${taskId}/cancel`, undefined).expect(200);
    expect(res.body).toMatchObject({ id: taskId, status: 'cancelled' });
    const listed = await gw.admin.get(`/admin/v1/tasks?account_id=${acct.id}&status=cancelled&limit=200`).expect(200);
    expect((listed.body.items as Array<{ id: string }>).map((t) => t.id)).toContain(taskId);
    const audit = await gw.admin.get(`/admin/v1/audit?action=task.cancel&limit=200`).expect(200);
    const entries = (audit.body.items as Array<Record<string, any>>).filter((e) => e.target.id === taskId);
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'task.cancel',
        actor: { id: operator.id, name: 'Otto Operator', role: 'operator' },
        target: { type: 'task', id: taskId, account_id: acct.id },
        before: { status: 'active', billing_state: 'held' },
        after: { status: 'cancelled', billing_state: 'released' },
        request_id: res.headers['x-request-id'],
      }),
    ]);
    // A second cancel changes nothing and is recorded as such, like every change request.
    await operator.client.post(`/admin/v1/tasks/${taskId}/cancel`, undefined).expect(200);
    const after = await gw.admin.get(`/admin/v1/audit?action=task.cancel&limit=200`).expect(200);
    const repeat = (after.body.items as Array<Record<string, any>>).filter((e) => e.target.id === taskId);
    expect(repeat).toHaveLength(2);
    expect(repeat[0]).toMatchObject({
      before: { status: 'cancelled', billing_state: 'released' },
      after: { status: 'cancelled', billing_state: 'released' },
    });
    await gw.admin.post('/admin/v1/tasks/task_unknown/cancel', undefined).expect(404);
    expect((await gw.app.get(AuditTrail).verify()).ok).toBe(true);
  });

  it('the upstream finishing at the moment of the cancel: each task settles once, one callback with its final state', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => createVd({ callback_url: receiver.url })));
    const ups = await Promise.all(ids.map(upstreamId));
    // The upstream finishes each task as its cancel arrives there: the even ones just before the
    // cancel is handled, the odd ones just after; the sync worker polls all the while.
    const index = new Map(ups.map((up, i) => [up, i]));
    const requests = gw.sim.requests;
    const push = requests.push.bind(requests);
    requests.push = (...items) => {
      for (const item of items) {
        const up = /\/tasks\/([^/]+)\/cancel$/.exec(item.path)?.[1];
        const i = up === undefined ? undefined : index.get(up);
        if (i === undefined) continue;
        if (i % 2 === 0) gw.sim.finishTask('vd', up!);
        else queueMicrotask(() => gw.sim.finishTask('vd', up!));
      }
      return push(...items);
    };
    let answers: Awaited<ReturnType<typeof cancel>>[];
    try {
      answers = await Promise.all(ids.map((taskId) => cancel(taskId)));
    } finally {
      requests.push = push;
    }
    const outcomes: string[] = [];
    for (const [i, taskId] of ids.entries()) {
      const task = await ended(taskId);
      outcomes.push(task.phase);
      expect(task.phase).toBe(i % 2 === 0 ? 'succeeded' : 'cancelled');
      if (task.phase === 'cancelled') {
        expect(answers[i].status).toBe(200);
        expect(task).toMatchObject({ billingState: 'released', finalCharge: null });
        expect(await usageCount(taskId)).toBe(0);
      } else {
        expect(answers[i].status).toBe(409);
        expect(answers[i].body.error.code).toBe('cannot_cancel');
        expect(task).toMatchObject({ phase: 'succeeded', billingState: 'settled', finalCharge: expect.any(Number) });
        expect(await usageCount(taskId)).toBe(1);
      }
    }
    await expectLedgerOk();
    const callbacksOf = (taskId: string) =>
      receiver.received.map((r) => JSON.parse(r.body)).filter((body) => body.id === taskId);
    await eventually(async () => ids.every((taskId) => callbacksOf(taskId).length > 0));
    await new Promise((r) => setTimeout(r, 300));
    for (const [i, taskId] of ids.entries()) {
      const hooks = callbacksOf(taskId);
      expect(hooks).toHaveLength(1);
      expect(hooks[0].state).toBe(outcomes[i] === 'cancelled' ? 'failed' : 'success');
      if (outcomes[i] === 'cancelled') expect(hooks[0].err_code).toBe('UserCancelled');
    }
  });
});
