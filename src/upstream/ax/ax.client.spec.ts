import { FakeUpstream, sendJson, startFakeUpstream } from '../../../test/upstream/fake-upstream';
import { createTestUpstream } from '../../../test/upstream/test-upstream';
import type { UpstreamChannel } from '../upstream.types';
import * as failures from '../upstream.types';
import { AX_ASYNC_HEADER, AX_PATHS } from './ax.api';

describe('AxClient', () => {
  let upstream: FakeUpstream;
  let stack: ReturnType<typeof createTestUpstream>;
  let channel: UpstreamChannel;

  beforeEach(async () => {
    upstream = await startFakeUpstream((_req, res) =>
      sendJson(res, 200, { request_id: 'r1', output: { task_id: 'ax-1', task_status: 'PENDING' } }),
    );
    stack = createTestUpstream();
    channel = {
      id: 'ax-test',
      family: 'ax',
      baseUrl: upstream.baseUrl,
      apiKey: 'ax-key-abcdef',
      modelMap: { 'wx2.7-r2v': 'wan2.7-r2v' },
    };
  });
  afterEach(async () => {
    stack.close();
    await upstream.close();
  });

  it('creates with a bearer key, the async header and the mapped model', async () => {
    const body = { model: 'wx2.7-r2v', input: { prompt: 'p', media: [] }, parameters: { duration: 5 } };
    const result = await stack.ax.submit(channel, 'r2v', body, { callbackUrl: 'https://gw.example/cb' });
    const sent = upstream.requests[0];
    expect(sent).toMatchObject({ method: 'POST', url: AX_PATHS.videoSynthesis });
    expect(sent.headers.authorization).toBe('Bearer ax-key-abcdef');
    expect(sent.headers[AX_ASYNC_HEADER.toLowerCase()]).toBe('enable');
    expect(sent.body).toEqual({ model: 'wan2.7-r2v', input: { prompt: 'p', media: [] }, parameters: { duration: 5 } });
    expect(result).toMatchObject({ upstreamTaskId: 'ax-1', snapshot: { state: 'queued', nativeStatus: 'PENDING' } });
  });

  it('queries without the async header', async () => {
    await stack.ax.fetch(channel, 'r2v', 'ax-1');
    expect(upstream.requests[0]).toMatchObject({ method: 'GET', url: `${AX_PATHS.tasks}/ax-1` });
    expect(upstream.requests[0].headers.authorization).toBe('Bearer ax-key-abcdef');
    expect(upstream.requests[0].headers[AX_ASYNC_HEADER.toLowerCase()]).toBeUndefined();
  });

  it('keeps the native code and message of a rejection', async () => {
    upstream.answerJson(400, {
      request_id: 'r',
      code: 'InvalidParameter',
      message: 'please provide reference_video_urls or reference_urls',
    });
    const error = await stack.ax.submit(channel, 'r2v', { model: 'wx2.6-r2v' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(failures.UpstreamRejectedError);
    expect(error).toMatchObject({
      httpStatus: 400,
      nativeCode: 'InvalidParameter',
      message: 'please provide reference_video_urls or reference_urls',
    });
  });

  it.each([
    ['a 401 InvalidApiKey', 401, 'InvalidApiKey'],
    ['a 403 AccessDenied', 403, 'AccessDenied'],
    ['a 403 AccessDenied.Unpurchased (a model the account has not opened)', 403, 'AccessDenied.Unpurchased'],
  ])("reads %s, on a create and on a query, as the channel's key refused", async (_case, status, code) => {
    upstream.answerJson(status, { request_id: 'r', code, message: 'Invalid API-key provided.' });
    for (const call of [() => stack.ax.submit(channel, 'r2v', {}), () => stack.ax.fetch(channel, 'r2v', 'ax-1')]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(failures.UpstreamCredentialsRefusedError);
      expect(error).toMatchObject({ httpStatus: status, nativeCode: code });
      expect((error as Error).message).toContain('Invalid API-key provided.');
    }
  });

  it("reads InvalidApiKey in a 2xx create answer as the channel's key refused", async () => {
    upstream.answerJson(200, { request_id: 'r', code: 'InvalidApiKey', message: 'bad key' });
    await expect(stack.ax.submit(channel, 'r2v', {})).rejects.toBeInstanceOf(failures.UpstreamCredentialsRefusedError);
  });

  it("keeps Arrearage (400) a refusal: the account's balance, not its key", async () => {
    upstream.answerJson(400, { request_id: 'r', code: 'Arrearage', message: 'Access denied' });
    const error = await stack.ax.submit(channel, 'r2v', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(failures.UpstreamRejectedError);
    expect(error).toMatchObject({ nativeCode: 'Arrearage' });
  });

  it('treats a 2xx carrying an error code as a rejection and one with neither code nor task as unknown outcome', async () => {
    upstream.answerJson(200, { request_id: 'r', code: 'Arrearage', message: 'account in arrears' });
    await expect(stack.ax.submit(channel, 'r2v', {})).rejects.toMatchObject({
      name: 'UpstreamRejectedError',
      nativeCode: 'Arrearage',
    });
    upstream.answerJson(200, { request_id: 'r' });
    await expect(stack.ax.submit(channel, 'r2v', {})).rejects.toBeInstanceOf(failures.UpstreamOutcomeUnknownError);
  });

  it('maps 500 to Unavailable and 404 on a query to TaskNotFound', async () => {
    upstream.answerJson(500, { code: 'InternalError' });
    await expect(stack.ax.submit(channel, 'r2v', {})).rejects.toBeInstanceOf(failures.UpstreamUnavailableError);
    upstream.answerJson(404, { code: 'NotFound', message: 'no such task' });
    await expect(stack.ax.fetch(channel, 'r2v', 'gone')).rejects.toBeInstanceOf(failures.UpstreamTaskNotFoundError);
  });

  it('reports a task answered with task_status UNKNOWN (invalid or expired ID) as lost, with its reason', async () => {
    upstream.answerJson(200, { request_id: 'r', output: { task_id: 'ax-old', task_status: 'UNKNOWN' } });
    const error = await stack.ax.fetch(channel, 'r2v', 'ax-old').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(failures.UpstreamTaskLostError);
    expect(error).toBeInstanceOf(failures.UpstreamTaskNotFoundError); // callers that only know "not found" still stop polling it
    expect(error).toMatchObject({ nativeStatus: 'UNKNOWN', reason: expect.stringMatching(/invalid or expired/) });
    upstream.answerJson(200, { request_id: 'r', output: { task_id: 'ax-1', task_status: 'Unknown ' } });
    await expect(stack.ax.fetch(channel, 'r2v', 'ax-1')).rejects.toBeInstanceOf(failures.UpstreamTaskLostError);
  });

  it('keeps other unreadable or unlisted statuses as state unknown, still polled', async () => {
    upstream.answerJson(200, { request_id: 'r', output: { task_id: 'ax-1', task_status: 'SUSPENDED' } });
    await expect(stack.ax.fetch(channel, 'r2v', 'ax-1')).resolves.toMatchObject({
      state: 'unknown',
      nativeStatus: 'SUSPENDED',
    });
  });

  it('reads a finished task with its usage', async () => {
    upstream.answerJson(200, {
      request_id: 'r',
      output: {
        task_id: 'ax-1',
        task_status: 'SUCCEEDED',
        video_url: 'http://x/v.mp4',
        submit_time: '2026-01-01 00:00:00.000',
      },
      usage: { duration: '15', input_video_duration: 5, output_video_duration: '10', video_count: 1 },
    });
    await expect(stack.ax.fetch(channel, 'r2v', 'ax-1')).resolves.toMatchObject({
      state: 'succeeded',
      progress: 100,
      videos: [{ url: 'http://x/v.mp4', durationSeconds: 10 }],
      nativeUsage: { duration: '15', output_video_duration: '10' },
    });
  });

  it('fails loudly on a channel without an API key, without calling', async () => {
    await expect(stack.ax.submit({ ...channel, apiKey: undefined }, 'r2v', {})).rejects.toBeInstanceOf(
      failures.UpstreamUnavailableError,
    );
    expect(upstream.requests).toHaveLength(0);
  });
});
