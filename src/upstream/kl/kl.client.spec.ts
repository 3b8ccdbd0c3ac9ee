import * as jwt from 'jsonwebtoken';
import { ManualClock } from '../../platform/time/clock';
import { FakeUpstream, sendJson, startFakeUpstream } from '../../../test/upstream/fake-upstream';
import { createTestUpstream } from '../../../test/upstream/test-upstream';
import type { UpstreamChannel } from '../upstream.types';
import * as failures from '../upstream.types';
import { KL_PATHS } from './kl.api';

const envelope = (data: unknown, code = 0, message = 'SUCCEED') => ({ code, message, request_id: 'req-1', data });
const klTask = (task_id: string, task_status: string, external_task_id: string, updated_at = 1) => ({
  task_id,
  task_status,
  task_info: { external_task_id },
  created_at: 1,
  updated_at,
});
const created = klTask('up-1', 'submitted', 'pub-1');

describe('KlClient', () => {
  let upstream: FakeUpstream;
  let clock: ManualClock;
  let stack: ReturnType<typeof createTestUpstream>;
  let channel: UpstreamChannel;

  beforeEach(async () => {
    upstream = await startFakeUpstream((_req, res) => sendJson(res, 200, envelope(created)));
    clock = new ManualClock();
    stack = createTestUpstream({}, clock);
    channel = { id: 'kl-test', family: 'kl', baseUrl: upstream.baseUrl, apiKey: 'kl-api-key-123' };
  });
  afterEach(async () => {
    stack.close();
    await upstream.close();
  });

  const bearerOf = (index = 0) => String(upstream.requests[index].headers.authorization).replace(/^Bearer /, '');

  describe('auth', () => {
    it('sends the API key as a bearer token', async () => {
      await stack.kl.submit(channel, 'multi_elements', { prompt: 'p' });
      expect(upstream.requests[0].headers.authorization).toBe('Bearer kl-api-key-123');
    });

    it('signs an HS256 JWT with iss = access key, exp = now + 1800 s, nbf = now - 5 s when the channel has a key pair', async () => {
      const keyed = { ...channel, accessKey: 'ak-123', secretKey: 'sk-secret-456' };
      await stack.kl.submit(keyed, 'multi_elements', { prompt: 'p' });
      const token = bearerOf();
      const now = Math.floor(clock.nowMs() / 1000);
      const verified = jwt.verify(token, 'sk-secret-456', {
        algorithms: ['HS256'],
        clockTimestamp: now,
        complete: true,
      });
      expect(verified.header).toMatchObject({ alg: 'HS256', typ: 'JWT' });
      expect(verified.payload).toEqual({ iss: 'ak-123', exp: now + 1800, nbf: now - 5 });
      expect(() => jwt.verify(token, 'another-secret', { clockTimestamp: now })).toThrow();
    });

    it('reuses the token until about 60 s before it expires', async () => {
      const keyed = { ...channel, accessKey: 'ak-123', secretKey: 'sk-secret-456' };
      await stack.kl.fetch(keyed, 'multi_elements', 'up-1');
      clock.advance(1000);
      await stack.kl.fetch(keyed, 'multi_elements', 'up-1');
      expect(bearerOf(1)).toBe(bearerOf(0));
      clock.advance(1800 * 1000 - 60 * 1000 - 1000);
      await stack.kl.fetch(keyed, 'multi_elements', 'up-1');
      expect(bearerOf(2)).not.toBe(bearerOf(0));
      const payload = jwt.decode(bearerOf(2)) as { exp: number };
      expect(payload.exp).toBe(Math.floor(clock.nowMs() / 1000) + 1800);
    });
  });

  describe('submit', () => {
    it('maps the model name, uses the gateway callback and our reference as external_task_id', async () => {
      const mapped = { ...channel, modelMap: { 'kl-v1-6': 'kling-v1-6' } };
      const body = {
        model_name: 'kl-v1-6',
        prompt: 'p',
        callback_url: 'https://client.example/cb',
        external_task_id: 'client-own',
      };
      const result = await stack.kl.submit(mapped, 'multi_elements', body, {
        callbackUrl: 'https://gw.example/cb/tok',
        clientReference: 'pub-1',
      });
      expect(upstream.requests[0]).toMatchObject({ method: 'POST', url: KL_PATHS.multiElements });
      expect(upstream.requests[0].body).toEqual({
        model_name: 'kling-v1-6',
        prompt: 'p',
        callback_url: 'https://gw.example/cb/tok',
        external_task_id: 'pub-1',
      });
      expect(body.model_name).toBe('kl-v1-6');
      expect(result.upstreamTaskId).toBe('up-1');
      expect(result.snapshot).toMatchObject({ state: 'queued', nativeStatus: 'submitted' });
    });

    it('never forwards the caller’s own callback_url or external_task_id', async () => {
      await stack.kl.submit(channel, 'custom_voices', {
        voice_name: 'v',
        callback_url: 'https://client.example/cb',
        external_task_id: 'client-own',
      });
      expect(upstream.requests[0].url).toBe(KL_PATHS.customVoices);
      expect(upstream.requests[0].body).toEqual({ voice_name: 'v' });
    });

    it('keeps the native code and message of a 400 rejection, without credentials', async () => {
      upstream.answerJson(400, { code: 1201, message: 'duration invalid for key kl-api-key-123', request_id: 'r' });
      const error = await stack.kl.submit(channel, 'multi_elements', { prompt: 'p' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(failures.UpstreamRejectedError);
      expect(error).toMatchObject({ httpStatus: 400, nativeCode: 1201, message: 'duration invalid for key ***' });
    });

    it('treats a non-zero envelope code in a 200 as a rejection, and a 5xxx code as unavailable', async () => {
      upstream.answerJson(200, envelope(null, 1102, 'balance not enough'));
      await expect(stack.kl.submit(channel, 'multi_elements', {})).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        nativeCode: 1102,
        message: 'balance not enough',
      });
      upstream.answerJson(200, envelope(null, 5000, 'internal'));
      await expect(stack.kl.submit(channel, 'multi_elements', {})).rejects.toBeInstanceOf(
        failures.UpstreamUnavailableError,
      );
    });

    it.each([
      ['HTTP 401, code 1000 (the key)', 401, 1000, 'Authentication failed'],
      ['HTTP 401, code 1004 (the token expired)', 401, 1004, 'Authorization expired'],
      ['HTTP 403, code 1103 (a resource the account may not use)', 403, 1103, 'Unauthorized access'],
      ['code 1002 inside a 200 envelope', 200, 1002, 'Authorization invalid'],
    ])(
      "reads %s as the channel's credentials refused, never as a verdict on the request",
      async (_c, status, code, msg) => {
        upstream.answerJson(status, envelope(null, code, `${msg} for kl-api-key-123`));
        const error = await stack.kl.submit(channel, 'multi_elements', {}).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(failures.UpstreamCredentialsRefusedError);
        expect(error).not.toBeInstanceOf(failures.UpstreamRejectedError);
        expect(error).toMatchObject({ nativeCode: code, message: expect.stringContaining(msg) });
        expect((error as Error).message).not.toContain('kl-api-key-123');
      },
    );

    it('turns a 500 into Unavailable', async () => {
      upstream.answerJson(500, { code: 5000, message: 'boom' });
      await expect(stack.kl.submit(channel, 'multi_elements', {})).rejects.toBeInstanceOf(
        failures.UpstreamUnavailableError,
      );
    });

    it('turns a create that hangs into OutcomeUnknown', async () => {
      stack.close();
      stack = createTestUpstream({ createTimeoutMs: 150 }, clock);
      upstream.handle(() => undefined);
      await expect(stack.kl.submit(channel, 'multi_elements', {}, { clientReference: 'pub-1' })).rejects.toBeInstanceOf(
        failures.UpstreamOutcomeUnknownError,
      );
    });

    it('falls back to our reference when an accepted answer carries no task ID', async () => {
      upstream.answerJson(200, envelope({ task_status: 'submitted' }));
      await expect(stack.kl.submit(channel, 'multi_elements', {}, { clientReference: 'pub-9' })).resolves.toMatchObject(
        { upstreamTaskId: 'pub-9' },
      );
      await expect(stack.kl.submit(channel, 'multi_elements', {})).rejects.toBeInstanceOf(
        failures.UpstreamOutcomeUnknownError,
      );
    });

    it('fills the timing out-parameter', async () => {
      const timing = { upstreamMs: 0 };
      await stack.kl.submit(channel, 'multi_elements', {}, { timing });
      expect(timing.upstreamMs).toBeGreaterThan(0);
    });

    it('refuses an operation it does not know', async () => {
      await expect(stack.kl.submit(channel, 'r2v', {})).rejects.toThrow(/no task operation "r2v"/);
    });
  });

  describe('fetch', () => {
    it('queries by task ID (or our external ID) and reads a finished task leniently', async () => {
      upstream.answerJson(
        200,
        envelope({
          task_id: 'up-1',
          task_status: 'succeed',
          task_status_msg: '',
          task_result: {
            videos: [
              { id: 'v1', session_id: 's', url: 'http://x/v.mp4', watermark_url: 'http://x/w.mp4', duration: '5.0' },
            ],
          },
          final_unit_deduction: '2.5',
          surprise_field: { nested: true },
        }),
      );
      const snapshot = await stack.kl.fetch(channel, 'multi_elements', 'pub/1');
      expect(upstream.requests[0]).toMatchObject({ method: 'GET', url: `${KL_PATHS.multiElements}/pub%2F1` });
      expect(snapshot).toMatchObject({
        state: 'succeeded',
        nativeStatus: 'succeed',
        progress: 100,
        videos: [{ id: 'v1', url: 'http://x/v.mp4', watermarkUrl: 'http://x/w.mp4', durationSeconds: 5 }],
        nativeUsage: { final_unit_deduction: '2.5' },
      });
      expect(snapshot.raw).toMatchObject({ code: 0, data: { task_id: 'up-1' } });
    });

    it('keeps the real failure reason', async () => {
      upstream.answerJson(
        200,
        envelope({ task_id: 'up-1', task_status: 'failed', task_status_msg: 'content moderation' }),
      );
      await expect(stack.kl.fetch(channel, 'custom_voices', 'up-1')).resolves.toMatchObject({
        state: 'failed',
        failureReason: 'content moderation',
      });
      expect(upstream.requests[0].url).toBe(`${KL_PATHS.customVoices}/up-1`);
    });

    it('maps 404 with code 1203 and the not-found envelope code to TaskNotFound', async () => {
      upstream.answerJson(404, { code: 1203, message: 'not found' });
      await expect(stack.kl.fetch(channel, 'multi_elements', 'nope')).rejects.toBeInstanceOf(
        failures.UpstreamTaskNotFoundError,
      );
      upstream.answerJson(200, envelope(null, 1203, 'not found'));
      await expect(stack.kl.fetch(channel, 'multi_elements', 'nope')).rejects.toBeInstanceOf(
        failures.UpstreamTaskNotFoundError,
      );
    });

    it('treats a 404 with code 1202 (invalid method) or without a kl body as a rejection, never as a lost task', async () => {
      upstream.answerJson(404, { code: 1202, message: 'invalid request method', request_id: 'r' });
      const error = await stack.kl.fetch(channel, 'multi_elements', 'up-1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(failures.UpstreamRejectedError);
      expect(error).not.toBeInstanceOf(failures.UpstreamTaskNotFoundError);
      expect(error).toMatchObject({ httpStatus: 404, nativeCode: 1202 });
      expect(upstream.requests).toHaveLength(1); // no second lookup form for a wrong method
      upstream.handle((_req, res) => res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html>Not Found</html>'));
      await expect(stack.kl.fetch(channel, 'multi_elements', 'up-1')).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        httpStatus: 404,
      });
    });

    describe('lookup by external_task_id', () => {
      const task = klTask('up-7', 'processing', 'task_01PUB', 2);

      it('uses the documented form first: the reference as the path segment', async () => {
        upstream.answerJson(200, envelope(task));
        const snapshot = await stack.kl.fetch(channel, 'multi_elements', 'task_01PUB');
        expect(upstream.requests.map((r) => r.url)).toEqual([`${KL_PATHS.multiElements}/task_01PUB`]);
        expect(snapshot).toMatchObject({ state: 'running', upstreamTaskId: 'up-7' });
      });

      it('falls back to the query-parameter form when the path form finds nothing', async () => {
        upstream.handle((req, res) =>
          req.url.includes('?')
            ? sendJson(
                res,
                200,
                envelope([{ ...task, task_id: 'other', task_info: { external_task_id: 'someone-else' } }, task]),
              )
            : sendJson(res, 404, { code: 1203, message: 'not found' }),
        );
        const snapshot = await stack.kl.fetch(channel, 'custom_voices', 'task_01PUB');
        expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
          `GET ${KL_PATHS.customVoices}/task_01PUB`,
          `GET ${KL_PATHS.customVoices}?external_task_id=task_01PUB`,
        ]);
        expect(snapshot).toMatchObject({ state: 'running', upstreamTaskId: 'up-7' });
      });

      it('accepts a single task from the query form, but only with that exact external ID', async () => {
        upstream.handle((req, res) =>
          req.url.includes('?')
            ? sendJson(res, 200, envelope(task))
            : sendJson(res, 200, envelope(null, 1203, 'not found')),
        );
        await expect(stack.kl.fetch(channel, 'multi_elements', 'task_01PUB')).resolves.toMatchObject({
          upstreamTaskId: 'up-7',
        });
        await expect(stack.kl.fetch(channel, 'multi_elements', 'task_01OTHER')).rejects.toBeInstanceOf(
          failures.UpstreamTaskNotFoundError,
        );
      });

      it('is not found when neither form knows it', async () => {
        upstream.answerJson(404, { code: 1203, message: 'not found' });
        await expect(stack.kl.fetch(channel, 'multi_elements', 'gone')).rejects.toBeInstanceOf(
          failures.UpstreamTaskNotFoundError,
        );
        expect(upstream.requests).toHaveLength(2);
      });

      it.each([
        [
          'refuses the form itself (400): not found',
          400,
          { code: 1201, message: 'unknown parameter' },
          failures.UpstreamTaskNotFoundError,
        ],
        [
          "refuses the channel's key (401): the key is wrong, the task not lost",
          401,
          { code: 1000 },
          failures.UpstreamCredentialsRefusedError,
        ],
        ['is down (503): an outage, the task not lost', 503, { code: 5001 }, failures.UpstreamUnavailableError],
      ])('when the path form finds nothing and the query form %s', async (_case, status, body, expected) => {
        upstream.handle((req, res) =>
          req.url.includes('?') ? sendJson(res, status, body) : sendJson(res, 404, { code: 1203 }),
        );
        await expect(stack.kl.fetch(channel, 'multi_elements', 'task_01PUB')).rejects.toBeInstanceOf(expected);
      });
    });

    it('shows official voices (owned_by "kling" upstream) as owned by kl, creators as they are', async () => {
      upstream.answerJson(
        200,
        envelope({
          task_id: 'up-1',
          task_status: 'succeed',
          task_result: {
            voices: [
              { voice_id: 'v1', owned_by: 'kling' },
              { voice_id: 'v2', owned_by: 12345 },
            ],
          },
        }),
      );
      const snapshot = await stack.kl.fetch(channel, 'custom_voices', 'up-1');
      expect(snapshot.voices.map((v) => v.ownedBy)).toEqual(['kl', '12345']);
    });

    it('answers an unreadable payload with state unknown instead of throwing', async () => {
      upstream.handle((_req, res) =>
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>maintenance</html>'),
      );
      await expect(stack.kl.fetch(channel, 'multi_elements', 'up-1')).resolves.toMatchObject({
        state: 'unknown',
        raw: '<html>maintenance</html>',
      });
    });
  });

  describe('call (non-task endpoints)', () => {
    it('posts a session call and returns the envelope data', async () => {
      upstream.answerJson(200, envelope({ status: 0, session_id: 'sess-1', fps: '30.0' }));
      const data = await stack.kl.call(channel, 'POST', KL_PATHS.initSelection, { video_url: 'http://x/in.mp4' });
      expect(data).toEqual({ status: 0, session_id: 'sess-1', fps: '30.0' });
      expect(upstream.requests[0]).toMatchObject({
        method: 'POST',
        url: KL_PATHS.initSelection,
        body: { video_url: 'http://x/in.mp4' },
      });
      expect(upstream.requests[0].headers.authorization).toBe('Bearer kl-api-key-123');
    });

    it('sends GET parameters as a query string and returns array data', async () => {
      upstream.answerJson(200, envelope([{ task_id: 'preset', task_status: 'succeed' }]));
      const data = await stack.kl.call<unknown[]>(channel, 'GET', KL_PATHS.presetsVoices, { pageNum: 1, pageSize: 30 });
      expect(data).toHaveLength(1);
      expect(upstream.requests[0].url).toBe(`${KL_PATHS.presetsVoices}?pageNum=1&pageSize=30`);
    });

    it('relabels the official preset voices owned_by "kling" as "kl"', async () => {
      const preset = (owner: unknown) => ({
        task_id: 'p',
        task_status: 'succeed',
        task_result: { voices: [{ voice_id: 'v', voice_name: 'Warm', owned_by: owner }] },
      });
      upstream.answerJson(200, envelope([preset('kling'), preset('Kling'), preset('777'), { task_id: 'odd' }]));
      const data = await stack.kl.call<Array<{ task_result?: { voices: Array<{ owned_by: string }> } }>>(
        channel,
        'GET',
        KL_PATHS.presetsVoices,
        {},
      );
      expect(data.map((item) => item.task_result?.voices[0].owned_by)).toEqual(['kl', 'kl', '777', undefined]);
      expect(data[0].task_result?.voices[0]).toMatchObject({ voice_id: 'v', voice_name: 'Warm' });
    });

    it('throws the typed errors: rejection with native code, unavailable without an envelope', async () => {
      upstream.answerJson(400, { code: 1201, message: 'points out of range' });
      await expect(stack.kl.call(channel, 'POST', KL_PATHS.addSelection, {})).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        nativeCode: 1201,
        message: 'points out of range',
      });
      upstream.answerJson(404, { code: 1203, message: 'session not found' });
      await expect(stack.kl.call(channel, 'POST', KL_PATHS.clearSelection, {})).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        httpStatus: 404,
      });
      upstream.handle((_req, res) => res.writeHead(200).end('not json'));
      await expect(stack.kl.call(channel, 'POST', KL_PATHS.deleteVoices, { voice_id: 'v' })).rejects.toBeInstanceOf(
        failures.UpstreamUnavailableError,
      );
    });
  });
});
