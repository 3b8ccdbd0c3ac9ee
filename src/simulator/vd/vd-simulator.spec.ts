import {
  fetchBytes,
  getJson,
  looksLikeMp4,
  looksLikePng,
  postJson,
  sleep,
  sleepUntil,
} from '../../../test/simulator/spec-helpers';
import { SPEC_TASK_MS, simulatorForSpec, startCallbackReceiver } from '../../../test/simulator/spec-simulator';

describe('vd simulator', () => {
  const spec = simulatorForSpec((sim) => ({ authorization: `Token ${sim.endpoints.vd.apiKey}` }));
  const create = (body: unknown, headers = spec.auth) =>
    postJson(`${spec.sim.endpoints.vd.baseUrl}/ent/v2/reference2video`, body, headers);
  const creations = (id: string) => getJson(`${spec.sim.endpoints.vd.baseUrl}/ent/v2/tasks/${id}/creations`, spec.auth);
  const nonSubject = (prompt: string, extra: Record<string, unknown> = {}) => ({
    model: 'vdq2',
    prompt,
    images: ['https://cdn.example/a.png'],
    ...extra,
  });

  it('accepts only Authorization: Token <key>', async () => {
    for (const authorization of [`Bearer ${spec.sim.endpoints.vd.apiKey}`, 'Token wrong']) {
      const reply = await create(nonSubject('x'), { authorization });
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({
        code: 401,
        reason: 'Unauthorized',
        metadata: { trace_id: expect.any(String) },
      });
    }
    expect((await create(nonSubject('x'))).status).toBe(200);
  });

  it('echoes the received fields with defaults, state created, integer credits and an ISO created_at', async () => {
    const reply = await create({
      model: 'vdq3',
      prompt: '@cat plays',
      subjects: [{ name: 'cat', images: ['https://x/cat.png'] }],
      payload: 'pass-me',
    });
    expect(reply.status).toBe(200);
    const task = reply.body;
    expect(task).toMatchObject({
      state: 'created',
      model: 'vdq3',
      prompt: '@cat plays',
      images: [],
      duration: 5,
      aspect_ratio: '16:9',
      resolution: '720p',
      bgm: false,
      audio: true,
      audio_type: 'all',
      movement_amplitude: 'auto',
      payload: 'pass-me',
      off_peak: false,
      watermark: false,
    });
    expect(task).not.toHaveProperty('videos');
    expect(task.task_id).toMatch(/^\d{18}$/);
    expect(Number.isInteger(task.credits) && task.credits > 0).toBe(true);
    expect(Number.isInteger(task.seed) && task.seed > 0).toBe(true);
    expect(task.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+Z$/);

    const pro = (
      await create({
        model: 'vdq2-pro',
        prompt: 'p',
        images: ['i'],
        videos: ['https://x/v.mp4'],
        seed: 7,
        duration: 8,
        resolution: '1080p',
      })
    ).body;
    expect(pro).toMatchObject({
      images: ['i'],
      videos: ['https://x/v.mp4'],
      seed: 7,
      duration: 8,
      resolution: '1080p',
      audio: false,
    });
    expect((await create({ model: 'vd2.0', prompt: 'p', images: ['i'] })).body).toMatchObject({
      duration: 4,
      resolution: '360p',
    });
  });

  it('accepts the vendor model names with the same defaults and refuses an unknown model natively', async () => {
    expect((await create({ model: 'vidu2.0', prompt: 'p', images: ['i'] })).body).toMatchObject({
      model: 'vidu2.0',
      duration: 4,
      resolution: '360p',
    });
    expect((await create({ model: 'viduq3', prompt: 'p', images: ['i'] })).body).toMatchObject({
      model: 'viduq3',
      duration: 5,
      resolution: '720p',
      audio: true,
    });
    const unknown = await create(nonSubject('p', { model: 'viduq9' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 400, reason: 'BadRequest' });
  });

  it('goes queueing -> processing -> success with a fetchable MP4 and cover', async () => {
    const task = (await create(nonSubject('a dog runs', { payload: 'abc' }))).body;
    const createdAt = Date.parse(task.created_at);
    expect((await creations(task.task_id)).body).toEqual({
      id: task.task_id,
      state: 'queueing',
      err_code: '',
      credits: task.credits,
      payload: 'abc',
      creations: [],
    });
    await sleepUntil(createdAt + SPEC_TASK_MS * 0.625);
    expect((await creations(task.task_id)).body.state).toBe('processing');
    await sleepUntil(createdAt + SPEC_TASK_MS + 20);
    const done = (await creations(task.task_id)).body;
    expect(done.state).toBe('success');
    const [creation] = done.creations;
    expect(creation.id).toMatch(/^\d{18}$/);
    expect(looksLikeMp4((await fetchBytes(creation.url)).bytes)).toBe(true);
    expect(looksLikePng((await fetchBytes(creation.cover_url)).bytes)).toBe(true);
    expect(creation.watermarked_url).toContain('/assets/sample.mp4');
  });

  it('fails with err_code for sim:fail, rejects sim:reject, 500s sim:error500 and hangs sim:hang', async () => {
    const failing = (await create(nonSubject('sim:fail'))).body;
    await sleepUntil(Date.parse(failing.created_at) + SPEC_TASK_MS + 20);
    const failed = (await creations(failing.task_id)).body;
    expect(failed.state).toBe('failed');
    expect(failed.err_code).toMatch(/^[A-Z]\w+$/);
    expect(failed.creations).toEqual([]);

    const rejected = await create(nonSubject('sim:reject'));
    expect(rejected.status).toBe(400);
    expect(rejected.body).toMatchObject({ code: 400, reason: 'BadRequest' });
    const broken = await create(nonSubject('sim:error500'));
    expect(broken.status).toBe(500);
    expect(broken.body).toMatchObject({ code: 500, reason: 'InternalServiceFailure' });
    const hanging = fetch(`${spec.sim.endpoints.vd.baseUrl}/ent/v2/reference2video`, {
      method: 'POST',
      headers: { ...spec.auth, 'content-type': 'application/json' },
      body: JSON.stringify(nonSubject('sim:hang')),
      signal: AbortSignal.timeout(300),
    });
    await expect(hanging).rejects.toThrow();
  });

  it('keeps a sim:slow task unfinished well past taskMs', async () => {
    const task = (await create(nonSubject('sim:slow'))).body;
    await sleepUntil(Date.parse(task.created_at) + SPEC_TASK_MS * 1.5);
    expect((await creations(task.task_id)).body.state).toBe('queueing');
  });

  it('refuses a body with neither subjects nor images, and 404s an unknown task', async () => {
    expect((await create({ model: 'vdq2', prompt: 'p' })).status).toBe(400);
    const missing = await creations('123');
    expect(missing.status).toBe(404);
    expect(missing.body.reason).toBe('TaskNotFound');
  });

  it('POSTs the creations body once to callback_url on the terminal state, forced patch included', async () => {
    const receiver = await startCallbackReceiver();
    try {
      const task = (await create(nonSubject('with callback', { callback_url: receiver.url }))).body;
      spec.sim.forceState('vd', task.task_id, { credits: '42' });
      await receiver.waitForCount(1, 10_000);
      await sleep(SPEC_TASK_MS);
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0].body).toMatchObject({ id: task.task_id, state: 'success', credits: '42' });
      expect(receiver.received[0].body.creations).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('cancels a task not yet scheduled only, answering {}; it then reads failed with UserCancelled', async () => {
    spec.sim.setTaskMs(60_000);
    try {
      const cancel = (id: string) =>
        postJson(`${spec.sim.endpoints.vd.baseUrl}/ent/v2/tasks/${id}/cancel`, { id }, spec.auth);
      const queued = (await create(nonSubject('the cat walks'))).body.task_id as string;
      expect(await cancel(queued)).toEqual({ status: 200, body: {} });
      expect((await creations(queued)).body).toMatchObject({
        state: 'failed',
        err_code: 'UserCancelled',
        credits: 0,
        creations: [],
      });

      const scheduled = (await create(nonSubject('the cat walks'))).body.task_id as string;
      spec.sim.forceState('vd', scheduled, { state: 'processing' });
      const refused = await cancel(scheduled);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ reason: 'BadRequest', message: 'task state is scheduled, can not cancel' });
      spec.sim.forceState('vd', scheduled, null);
      spec.sim.finishTask('vd', scheduled);
      expect((await creations(scheduled)).body.state).toBe('success');
      expect((await cancel(scheduled)).status).toBe(400);
    } finally {
      spec.sim.setTaskMs(SPEC_TASK_MS);
    }
  });
});
