import { RunningSimulator, startSimulator } from '../simulator';
import { fetchBytes, getJson, looksLikeMp4, postJson, sleepUntil } from '../../../test/simulator/spec-helpers';

const TASK_MS = 400;
const AX_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('ax simulator', () => {
  let sim: RunningSimulator;
  let headers: Record<string, string>;
  const createUrl = () => `${sim.endpoints.ax.baseUrl}/api/v1/services/aigc/video-generation/video-synthesis`;
  const create = (body: unknown, extra: Record<string, string> = {}) =>
    postJson(createUrl(), body, { ...headers, ...extra });
  const query = (taskId: string) =>
    getJson(`${sim.endpoints.ax.baseUrl}/api/v1/tasks/${taskId}`, { authorization: headers.authorization });
  const oldProtocol = (prompt: string, referenceUrls: string[] = ['https://cdn.example/cat.png'], duration = 5) => ({
    model: 'wx2.6-r2v',
    input: { prompt, reference_urls: referenceUrls },
    parameters: { size: '1280*720', duration },
  });

  beforeAll(async () => {
    sim = await startSimulator({ taskMs: TASK_MS });
    headers = { authorization: `Bearer ${sim.endpoints.ax.apiKey}`, 'x-dashscope-async': 'enable' };
  });
  afterAll(() => sim.close());

  it('refuses a wrong or missing key with the native 401', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Token ${sim.endpoints.ax.apiKey}`]) {
      const reply = await postJson(
        createUrl(),
        oldProtocol('x'),
        authorization ? { authorization, 'x-dashscope-async': 'enable' } : {},
      );
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ code: 'InvalidApiKey', request_id: expect.any(String) });
    }
  });

  it('requires X-DashScope-Async: enable on creation', async () => {
    const reply = await postJson(createUrl(), oldProtocol('x'), { authorization: headers.authorization });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('InvalidParameter');
  });

  it('refuses a body without references with the native message', async () => {
    const reply = await create({ model: 'wx2.6-r2v', input: { prompt: 'character1 runs' } });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      code: 'InvalidParameter',
      message: 'please provide reference_video_urls or reference_urls',
    });
  });

  it('accepts the public and the vendor model names and refuses any other model natively', async () => {
    for (const model of ['wx2.6-r2v-flash', 'wan2.6-r2v-flash'])
      expect((await create({ ...oldProtocol('character1 runs'), model })).status).toBe(200);
    const unknown = await create({ ...oldProtocol('character1 runs'), model: 'wan9-r2v' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'InvalidParameter', message: 'Model not exist.' });
  });

  it('goes PENDING -> RUNNING -> SUCCEEDED with a fetchable MP4 and input+output usage', async () => {
    const created = await create(
      oldProtocol('character1 and character2 dance', ['https://cdn.example/a.png', 'https://cdn.example/b.MOV'], 7),
    );
    expect(created.status).toBe(200);
    expect(created.body.output.task_status).toBe('PENDING');
    const taskId: string = created.body.output.task_id;
    expect(taskId).toMatch(UUID);

    const pending = (await query(taskId)).body;
    expect(pending.output).toMatchObject({ task_id: taskId, task_status: 'PENDING' });
    expect(pending.output.submit_time).toMatch(AX_TIME);
    const createdAt = Date.parse(`${pending.output.submit_time.replace(' ', 'T')}Z`); // UTC
    expect(Math.abs(createdAt - Date.now())).toBeLessThan(5000);
    await sleepUntil(createdAt + TASK_MS * 0.625);
    const running = (await query(taskId)).body.output;
    expect(running.task_status).toBe('RUNNING');
    expect(running.scheduled_time).toMatch(AX_TIME);
    await sleepUntil(createdAt + TASK_MS + 20);
    const done = (await query(taskId)).body;
    expect(done.output.task_status).toBe('SUCCEEDED');
    expect(done.output.end_time).toMatch(AX_TIME);
    expect(done.output.end_time > done.output.submit_time).toBe(true);
    expect(done.usage).toEqual({
      duration: 12,
      input_video_duration: 5,
      output_video_duration: 7,
      video_count: 1,
      SR: 720,
    });
    expect(looksLikeMp4((await fetchBytes(done.output.video_url)).bytes)).toBe(true);
  });

  it('counts reference_video media of the new protocol as input seconds', async () => {
    const created = await create({
      model: 'wx2.7-r2v',
      input: {
        prompt: 'Video 1 meets Video 2',
        media: [
          { type: 'reference_video', url: 'https://x/1.mp4' },
          { type: 'reference_video', url: 'https://x/2.mp4' },
          { type: 'reference_image', url: 'https://x/3.png' },
        ],
      },
      parameters: { resolution: '1080P', duration: 4 },
    });
    await sleepUntil(Date.now() + TASK_MS + 20);
    const usage = (await query(created.body.output.task_id)).body.usage;
    expect(usage).toMatchObject({ duration: 14, input_video_duration: 10, output_video_duration: 4, SR: 1080 });
  });

  it('ends FAILED with output.code and output.message for sim:fail', async () => {
    const created = await create(oldProtocol('sim:fail'));
    await sleepUntil(Date.now() + TASK_MS + 20);
    const output = (await query(created.body.output.task_id)).body.output;
    expect(output.task_status).toBe('FAILED');
    expect(output.code).toMatch(/^[A-Z]\w+$/);
    expect(output.message).not.toBe('');
    expect(output.video_url).toBeUndefined();
  });

  it('rejects with 400 for sim:reject, 500 for sim:error500, and never answers sim:hang', async () => {
    const rejected = await create(oldProtocol('sim:reject'));
    expect(rejected.status).toBe(400);
    expect(rejected.body.code).toBe('InvalidParameter');
    const broken = await create(oldProtocol('sim:error500'));
    expect(broken.status).toBe(500);
    expect(broken.body.code).toBe('InternalError');
    const hanging = fetch(createUrl(), {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(oldProtocol('sim:hang')),
      signal: AbortSignal.timeout(300),
    });
    await expect(hanging).rejects.toThrow();
  });

  it('keeps a sim:slow task pending well past taskMs', async () => {
    const created = await create(oldProtocol('sim:slow'));
    await sleepUntil(Date.now() + TASK_MS * 1.5);
    expect((await query(created.body.output.task_id)).body.output.task_status).toBe('PENDING');
  });

  it('answers 404 NotFound for an unknown task', async () => {
    const reply = await query('00000000-0000-4000-8000-000000000000');
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe('NotFound');
  });

  it('forceState can send numbers as strings and unknown status words', async () => {
    const created = await create(oldProtocol('forced'));
    const taskId = created.body.output.task_id;
    sim.forceState('ax', taskId, { output: { task_status: 'SUSPENDED' }, usage: { duration: '12' } });
    const forced = (await query(taskId)).body;
    expect(forced.output).toMatchObject({ task_id: taskId, task_status: 'SUSPENDED' });
    expect(forced.usage).toEqual({ duration: '12' });
    sim.forceState('ax', taskId, () => ({ weird: true }));
    expect((await query(taskId)).body).toEqual({ weird: true });
  });

  it('cancels a PENDING task only (as its query shows it); finishTask ends a task now', async () => {
    sim.setTaskMs(60_000);
    try {
      const cancelUrl = (id: string) => `${sim.endpoints.ax.baseUrl}/api/v1/tasks/${id}/cancel`;
      const auth = { authorization: headers.authorization };
      const pending = (await create(oldProtocol('character1 runs'))).body.output.task_id as string;
      const accepted = await postJson(cancelUrl(pending), {}, auth);
      expect(accepted).toEqual({ status: 200, body: { request_id: expect.stringMatching(UUID) } });
      const cancelled = (await query(pending)).body.output;
      expect(cancelled).toMatchObject({ task_status: 'CANCELED', end_time: expect.stringMatching(AX_TIME) });
      expect(cancelled.video_url).toBeUndefined();
      const again = await postJson(cancelUrl(pending), {}, auth);
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ code: 'UnsupportedOperation', message: expect.stringContaining('PENDING') });

      const running = (await create(oldProtocol('character1 runs'))).body.output.task_id as string;
      sim.forceState('ax', running, { output: { task_status: 'RUNNING' } });
      expect((await postJson(cancelUrl(running), {}, auth)).status).toBe(400);
      sim.forceState('ax', running, null);
      expect((await query(running)).body.output.task_status).toBe('PENDING');

      sim.finishTask('ax', running);
      expect((await query(running)).body.output).toMatchObject({
        task_status: 'SUCCEEDED',
        video_url: expect.any(String),
      });
      expect((await postJson(cancelUrl(running), {}, auth)).status).toBe(400);
      expect((await postJson(cancelUrl('no-such-task'), {}, auth)).status).toBe(404);
    } finally {
      sim.setTaskMs(TASK_MS);
    }
  });
});
