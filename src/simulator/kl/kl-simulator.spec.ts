import * as jwt from 'jsonwebtoken';
import { fetchBytes, getJson, looksLikeMp4, postJson, sleep, sleepUntil } from '../../../test/simulator/spec-helpers';
import { SPEC_TASK_MS, simulatorForSpec, startCallbackReceiver } from '../../../test/simulator/spec-simulator';

describe('kl simulator', () => {
  const spec = simulatorForSpec((sim) => ({ authorization: `Bearer ${sim.endpoints.kl.apiKey}` }));
  const url = (path: string) => `${spec.sim.endpoints.kl.baseUrl}/v1${path}`;
  const post = (path: string, body: unknown, headers = spec.auth) => postJson(url(path), body, headers);
  const get = (path: string, headers = spec.auth) => getJson(url(path), headers);

  const signJwt = (claims: Record<string, unknown>, secret = spec.sim.endpoints.kl.secretKey!) =>
    jwt.sign(claims, secret, { algorithm: 'HS256' });
  const now = () => Math.floor(Date.now() / 1000);

  describe('auth', () => {
    const presets = (authorization?: string) =>
      get('/general/presets-voices?pageNum=1&pageSize=2', authorization ? { authorization } : {});

    it('accepts the API key', async () => {
      const reply = await presets(`Bearer ${spec.sim.endpoints.kl.apiKey}`);
      expect(reply.status).toBe(200);
      expect(reply.body.code).toBe(0);
    });

    it('accepts an HS256 JWT signed with the secret key, iss = access key', async () => {
      const token = signJwt({ iss: spec.sim.endpoints.kl.accessKey, exp: now() + 1800, nbf: now() - 5 });
      expect((await presets(`Bearer ${token}`)).status).toBe(200);
    });

    it.each([
      ['no header', undefined],
      ['a wrong key', 'Bearer nope'],
      ['the key without Bearer', 'KEY'],
      ['a JWT with the wrong secret', 'WRONG_SECRET'],
      ['a JWT with the wrong issuer', 'WRONG_ISS'],
      ['an expired JWT', 'EXPIRED'],
      ['a JWT not valid yet', 'NBF_FUTURE'],
      ['a JWT without exp', 'NO_EXP'],
    ])('refuses %s with 401 code 1000', async (_label, kind) => {
      const tokens: Record<string, () => string> = {
        KEY: () => spec.sim.endpoints.kl.apiKey,
        WRONG_SECRET: () =>
          `Bearer ${signJwt({ iss: spec.sim.endpoints.kl.accessKey, exp: now() + 1800 }, 'other-secret')}`,
        WRONG_ISS: () => `Bearer ${signJwt({ iss: 'someone-else', exp: now() + 1800 })}`,
        EXPIRED: () => `Bearer ${signJwt({ iss: spec.sim.endpoints.kl.accessKey, exp: now() - 10 })}`,
        NBF_FUTURE: () =>
          `Bearer ${signJwt({ iss: spec.sim.endpoints.kl.accessKey, exp: now() + 1800, nbf: now() + 600 })}`,
        NO_EXP: () => `Bearer ${signJwt({ iss: spec.sim.endpoints.kl.accessKey })}`,
      };
      const header = kind === undefined ? undefined : (tokens[kind]?.() ?? kind);
      const reply = await presets(header);
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ code: 1000, data: null });
      expect(typeof reply.body.request_id).toBe('string');
    });
  });

  describe('sessions', () => {
    const init = async (videoUrl = 'https://cdn.example/source.mp4') => {
      const reply = await post('/videos/multi-elements/init-selection', { video_url: videoUrl });
      expect(reply.status).toBe(200);
      return reply.body.data;
    };
    const p = (x: number, y: number) => ({ x, y });

    it('initialises a session with the parsed video facts', async () => {
      const data = await init();
      expect(data).toMatchObject({
        status: 0,
        fps: 30,
        original_duration: 5,
        width: 1280,
        height: 720,
        total_frame: 150,
      });
      expect(data.session_id).toMatch(/^\d{19}$/);
      expect(typeof data.final_unit_deduction).toBe('string');
      expect(looksLikeMp4((await fetchBytes(data.normalized_video)).bytes)).toBe(true);
      expect((await init('https://cdn.example/long.mp4#sim:long')).original_duration).toBe(10);
    });

    it('requires exactly one of video_id and video_url', async () => {
      expect((await post('/videos/multi-elements/init-selection', {})).body.code).toBe(1201);
      const both = await post('/videos/multi-elements/init-selection', { video_id: '1', video_url: 'https://x/y.mp4' });
      expect(both.status).toBe(400);
    });

    it('reports a refused recognition with a non-zero status for sim:fail', async () => {
      const data = await init('https://cdn.example/sim:fail.mp4');
      expect(data.status).not.toBe(0);
      expect(data.session_id).toBe('');
    });

    it('adds marks, removes them only by their exact points, clears and previews', async () => {
      const { session_id } = await init();
      const added = await post('/videos/multi-elements/add-selection', {
        session_id,
        frame_index: 3,
        points: [p(0.25, 0.5), p(0.3, 0.6)],
      });
      expect(added.status).toBe(200);
      expect(added.body.data).toMatchObject({ status: 0, session_id, res: { frame_index: 3 } });
      const [mask] = added.body.data.res.rle_mask_list;
      expect(mask.rle_mask.size).toEqual([720, 1280]);
      expect(Buffer.from(mask.png_mask.base64, 'base64').subarray(1, 4).toString('ascii')).toBe('PNG');

      const inexact = await post('/videos/multi-elements/delete-selection', {
        session_id,
        frame_index: 3,
        points: [p(0.25, 0.5000001)],
      });
      expect(inexact.status).toBe(400);
      expect(inexact.body.code).toBe(1201);
      const wrongFrame = await post('/videos/multi-elements/delete-selection', {
        session_id,
        frame_index: 4,
        points: [p(0.25, 0.5)],
      });
      expect(wrongFrame.status).toBe(400);

      const partial = await post('/videos/multi-elements/delete-selection', {
        session_id,
        frame_index: 3,
        points: [p(0.25, 0.5)],
      });
      expect(partial.status).toBe(200);
      expect(partial.body.data.res.rle_mask_list).toHaveLength(1);
      const last = await post('/videos/multi-elements/delete-selection', {
        session_id,
        frame_index: 3,
        points: [p(0.3, 0.6)],
      });
      expect(last.body.data.res.rle_mask_list).toHaveLength(0);
      // Gone now: deleting the same point again is refused.
      expect(
        (await post('/videos/multi-elements/delete-selection', { session_id, frame_index: 3, points: [p(0.3, 0.6)] }))
          .status,
      ).toBe(400);

      expect((await post('/videos/multi-elements/preview-selection', { session_id })).status).toBe(400);
      await post('/videos/multi-elements/add-selection', { session_id, frame_index: 0, points: [p(0.1, 0.1)] });
      const preview = await post('/videos/multi-elements/preview-selection', { session_id });
      expect(preview.status).toBe(200);
      expect(looksLikeMp4((await fetchBytes(preview.body.data.res.video)).bytes)).toBe(true);
      expect(preview.body.data.res.video_cover).toContain('/assets/sample.png');

      const cleared = await post('/videos/multi-elements/clear-selection', { session_id });
      expect(cleared.body.data).toEqual({ status: 0, session_id, final_unit_deduction: '0' });
      expect((await post('/videos/multi-elements/preview-selection', { session_id })).status).toBe(400);
    });

    it('allows at most 10 marked frames and 10 points per frame', async () => {
      const { session_id } = await init();
      for (let frame = 0; frame < 10; frame++) {
        expect(
          (
            await post('/videos/multi-elements/add-selection', {
              session_id,
              frame_index: frame,
              points: [p(0.5, 0.5)],
            })
          ).status,
        ).toBe(200);
      }
      expect(
        (await post('/videos/multi-elements/add-selection', { session_id, frame_index: 10, points: [p(0.5, 0.5)] }))
          .status,
      ).toBe(400);
      // An already marked frame still takes points, up to 10.
      const nine = Array.from({ length: 9 }, (_v, i) => p(0.01 * (i + 1), 0.2));
      expect(
        (await post('/videos/multi-elements/add-selection', { session_id, frame_index: 0, points: nine })).status,
      ).toBe(200);
      expect(
        (await post('/videos/multi-elements/add-selection', { session_id, frame_index: 0, points: [p(0.9, 0.9)] }))
          .status,
      ).toBe(400);
    });

    it('refuses bad points, out-of-range frames and unknown sessions', async () => {
      const { session_id } = await init();
      expect(
        (await post('/videos/multi-elements/add-selection', { session_id, frame_index: 0, points: [p(1.5, 0.5)] }))
          .status,
      ).toBe(400);
      expect(
        (await post('/videos/multi-elements/add-selection', { session_id, frame_index: 150, points: [p(0.5, 0.5)] }))
          .status,
      ).toBe(400);
      expect(
        (await post('/videos/multi-elements/add-selection', { session_id, frame_index: 0, points: [] })).status,
      ).toBe(400);
      const unknown = await post('/videos/multi-elements/add-selection', {
        session_id: '123',
        frame_index: 0,
        points: [p(0.5, 0.5)],
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe(1203);
    });
  });

  describe('editing tasks', () => {
    let sessionId: string;
    const body = (prompt: string, extra: Record<string, unknown> = {}) => ({
      model_name: 'kl-v1-6',
      session_id: sessionId,
      edit_mode: 'removal',
      prompt,
      ...extra,
    });

    beforeAll(async () => {
      sessionId = (await post('/videos/multi-elements/init-selection', { video_url: 'https://cdn.example/a.mp4' })).body
        .data.session_id;
    });

    it('accepts the public and the vendor model name and refuses another model natively', async () => {
      for (const model_name of ['kl-v1-6', 'kling-v1-6'])
        expect((await post('/videos/multi-elements', body('Delete the cup', { model_name }))).status).toBe(200);
      const unknown = await post('/videos/multi-elements', body('Delete the cup', { model_name: 'kling-v9' }));
      expect(unknown.status).toBe(400);
      expect(unknown.body.code).toBe(1201);
    });

    it('goes submitted -> processing -> succeed and returns a fetchable MP4', async () => {
      const created = await post(
        '/videos/multi-elements',
        body('Delete the cup from <<<video_1>>>', { external_task_id: 'ext-1', duration: 5 }),
      );
      expect(created.status).toBe(200);
      const data = created.body.data;
      expect(data).toMatchObject({ task_status: 'submitted', task_info: { external_task_id: 'ext-1' } });
      expect(data.task_id).toMatch(/^\d{19}$/);
      expect(data.created_at).toBe(data.updated_at);
      expect(Math.abs(data.created_at - Date.now())).toBeLessThan(5000);

      expect((await get(`/videos/multi-elements/${data.task_id}`)).body.data.task_status).toBe('submitted');
      await sleepUntil(data.created_at + SPEC_TASK_MS * 0.625);
      expect((await get(`/videos/multi-elements/${data.task_id}`)).body.data.task_status).toBe('processing');
      await sleepUntil(data.created_at + SPEC_TASK_MS + 20);
      const done = (await get(`/videos/multi-elements/ext-1`)).body; // by external_task_id
      expect(done.code).toBe(0);
      expect(done.data).toMatchObject({
        task_id: data.task_id,
        task_status: 'succeed',
        task_status_msg: '',
        watermark_info: { enabled: false },
      });
      expect(done.data.updated_at).toBeGreaterThan(done.data.created_at);
      const [video] = done.data.task_result.videos;
      expect(video).toMatchObject({ session_id: sessionId, duration: '5' });
      const mp4 = await fetchBytes(video.url);
      expect(mp4.status).toBe(200);
      expect(looksLikeMp4(mp4.bytes)).toBe(true);
    });

    it('ends failed with a reason for sim:fail', async () => {
      const created = await post('/videos/multi-elements', body('Delete x sim:fail'));
      await sleepUntil(created.body.data.created_at + SPEC_TASK_MS + 20);
      const data = (await get(`/videos/multi-elements/${created.body.data.task_id}`)).body.data;
      expect(data.task_status).toBe('failed');
      expect(data.task_status_msg).toMatch(/\w{5,}/);
      expect(data.task_result.videos).toEqual([]);
    });

    it('rejects with a native 400 for sim:reject and answers 500 for sim:error500', async () => {
      const rejected = await post('/videos/multi-elements', body('sim:reject'));
      expect(rejected.status).toBe(400);
      expect(rejected.body).toMatchObject({ code: 1201, data: null });
      const broken = await post('/videos/multi-elements', body('sim:error500'));
      expect(broken.status).toBe(500);
      expect(broken.body.code).toBe(5000);
    });

    it('never answers for sim:hang', async () => {
      const attempt = fetch(url('/videos/multi-elements'), {
        method: 'POST',
        headers: { ...spec.auth, 'content-type': 'application/json' },
        body: JSON.stringify(body('sim:hang')),
        signal: AbortSignal.timeout(300),
      });
      await expect(attempt).rejects.toThrow();
    });

    it('takes ten times longer for sim:slow', async () => {
      const created = (await post('/videos/multi-elements', body('slow one sim:slow'))).body.data;
      await sleepUntil(created.created_at + SPEC_TASK_MS * 1.5);
      expect((await get(`/videos/multi-elements/${created.task_id}`)).body.data.task_status).toBe('submitted');
    });

    it('refuses an unknown session and answers 404 for an unknown task', async () => {
      expect((await post('/videos/multi-elements', { ...body('x'), session_id: '42' })).status).toBe(400);
      const missing = await get('/videos/multi-elements/999');
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe(1203);
    });

    it('POSTs the query envelope to callback_url on every status change: processing, then the terminal state', async () => {
      const receiver = await startCallbackReceiver();
      try {
        const created = (await post('/videos/multi-elements', body('callback please', { callback_url: receiver.url })))
          .body.data;
        await receiver.waitForCount(2, 10_000);
        await sleep(SPEC_TASK_MS);
        expect(receiver.received).toHaveLength(2);
        const [running, done] = receiver.received;
        expect(running.headers['content-type']).toContain('application/json');
        expect(running.body).toMatchObject({ code: 0, data: { task_id: created.task_id, task_status: 'processing' } });
        expect(running.body.data.task_result.videos).toHaveLength(0);
        expect(done.body).toMatchObject({ code: 0, data: { task_id: created.task_id, task_status: 'succeed' } });
        expect(done.body.data.task_result.videos).toHaveLength(1);
      } finally {
        await receiver.close();
      }
    });

    it('forceState makes the query answer an arbitrary native payload', async () => {
      const created = (await post('/videos/multi-elements', body('forced'))).body.data;
      spec.sim.forceState('kl', created.task_id, {
        data: { task_status: 'paused', final_unit_deduction: 3, task_info: undefined },
      });
      const data = (await get(`/videos/multi-elements/${created.task_id}`)).body.data;
      expect(data.task_status).toBe('paused');
      expect(data.final_unit_deduction).toBe(3);
      expect(data).not.toHaveProperty('task_info');
      spec.sim.forceState('kl', created.task_id, null);
      expect((await get(`/videos/multi-elements/${created.task_id}`)).body.data.task_status).toBe('submitted');
    });
  });

  describe('voices', () => {
    it('creates a custom voice that succeeds with a voice, then deletes it', async () => {
      const receiver = await startCallbackReceiver();
      try {
        const created = await post('/general/custom-voices', {
          voice_name: 'Narrator',
          voice_url: 'https://x/v.mp3',
          external_task_id: 'voice-ext',
          callback_url: receiver.url,
        });
        expect(created.body.data).toMatchObject({
          task_status: 'submitted',
          task_info: { external_task_id: 'voice-ext' },
        });
        const taskId = created.body.data.task_id;
        expect(taskId).toMatch(/^\d{19}$/);
        await sleepUntil(created.body.data.created_at + SPEC_TASK_MS + 20);
        const done = (await get('/general/custom-voices/voice-ext')).body.data;
        expect(done).toMatchObject({ task_id: taskId, task_status: 'succeed' });
        const [voice] = done.task_result.voices;
        expect(voice).toMatchObject({ voice_name: 'Narrator', owned_by: expect.stringMatching(/^\d+$/) });
        expect(voice.voice_id).toMatch(/^\d{18}$/);
        await receiver.waitForCount(2, 10_000);
        expect(receiver.received.map((callback) => callback.body.data.task_status)).toEqual(['processing', 'succeed']);
        expect(receiver.received[1].body.data.task_result.voices[0].voice_id).toBe(voice.voice_id);

        const deleted = await post('/general/delete-voices', { voice_id: voice.voice_id });
        expect(deleted.body.data).toMatchObject({ task_status: 'succeed', task_id: expect.stringMatching(/^\d+$/) });
        expect((await post('/general/delete-voices', { voice_id: voice.voice_id })).status).toBe(404);
      } finally {
        await receiver.close();
      }
    });

    it('fails a voice for sim:fail and rejects a voice without a source', async () => {
      const created = (
        await post('/general/custom-voices', { voice_name: 'bad sim:fail', voice_url: 'https://x/v.mp3' })
      ).body.data;
      await sleepUntil(created.created_at + SPEC_TASK_MS + 20);
      const done = (await get(`/general/custom-voices/${created.task_id}`)).body.data;
      expect(done.task_status).toBe('failed');
      expect(done.task_status_msg).not.toBe('');
      expect((await post('/general/custom-voices', { voice_name: 'x' })).status).toBe(400);
      expect(
        (await post('/general/custom-voices', { voice_name: 'sim:reject', voice_url: 'https://x/v.mp3' })).status,
      ).toBe(400);
    });

    it('lists preset voices owned by kling (as the vendor labels them), paged, and refuses to delete them', async () => {
      const reply = await get('/general/presets-voices?pageNum=1&pageSize=2');
      expect(reply.body.data).toHaveLength(2);
      expect(reply.body.data[0]).toMatchObject({ task_status: 'succeed', task_status_msg: '' });
      const voice = reply.body.data[0].task_result.voices[0];
      expect(voice.owned_by).toBe('kling');
      const page2 = await get('/general/presets-voices?pageNum=2&pageSize=2');
      expect(page2.body.data[0].task_result.voices[0].voice_id).not.toBe(voice.voice_id);
      expect((await post('/general/delete-voices', { voice_id: voice.voice_id })).status).toBe(400);
      expect((await get('/general/presets-voices?pageNum=0')).status).toBe(400);
    });
  });
});
