import { FakeUpstream, sendJson, startFakeUpstream } from '../../../test/upstream/fake-upstream';
import { createTestUpstream } from '../../../test/upstream/test-upstream';
import type { UpstreamChannel } from '../upstream.types';
import * as failures from '../upstream.types';
import { VD_PATHS } from './vd.api';

const createdAnswer = {
  task_id: '8123',
  state: 'created',
  model: 'viduq3',
  prompt: 'p',
  images: [],
  duration: 5,
  credits: '20',
  created_at: '2026-01-01T00:00:00.000Z',
};

describe('VdClient', () => {
  let upstream: FakeUpstream;
  let stack: ReturnType<typeof createTestUpstream>;
  let channel: UpstreamChannel;

  beforeEach(async () => {
    upstream = await startFakeUpstream((_req, res) => sendJson(res, 200, createdAnswer));
    stack = createTestUpstream();
    channel = {
      id: 'vd-test',
      family: 'vd',
      baseUrl: `${upstream.baseUrl}/`,
      apiKey: 'vd-key-xyz987',
      modelMap: { vdq3: 'viduq3' },
    };
  });
  afterEach(async () => {
    stack.close();
    await upstream.close();
  });

  it('creates with `Token` auth, the mapped model and the gateway callback instead of the caller’s', async () => {
    const body = { model: 'vdq3', prompt: 'p', images: ['http://x/a.png'], callback_url: 'https://client.example/cb' };
    const result = await stack.vd.submit(channel, 'reference2video', body, { callbackUrl: 'https://gw.example/cb/t' });
    const sent = upstream.requests[0];
    expect(sent).toMatchObject({ method: 'POST', url: VD_PATHS.reference2video });
    expect(sent.headers.authorization).toBe('Token vd-key-xyz987');
    expect(sent.body).toEqual({
      model: 'viduq3',
      prompt: 'p',
      images: ['http://x/a.png'],
      callback_url: 'https://gw.example/cb/t',
    });
    expect(result).toMatchObject({
      upstreamTaskId: '8123',
      snapshot: { state: 'queued', nativeStatus: 'created', nativeUsage: { credits: '20' } },
    });
  });

  it('drops the caller’s callback_url when the gateway has none to give', async () => {
    await stack.vd.submit(channel, 'reference2video', { model: 'vdq1', callback_url: 'https://client.example/cb' });
    expect(upstream.requests[0].body).toEqual({ model: 'vdq1' });
  });

  it('keeps the native reason and message of a rejection', async () => {
    upstream.answerJson(400, {
      code: 400,
      reason: 'BadRequest',
      message: 'duration must be 5 for vdq1',
      metadata: { trace_id: 't' },
    });
    const error = await stack.vd.submit(channel, 'reference2video', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(failures.UpstreamRejectedError);
    expect(error).toMatchObject({ httpStatus: 400, nativeCode: 'BadRequest', message: 'duration must be 5 for vdq1' });
  });

  it.each([
    ['a 401 Unauthorized', 401, 'Unauthorized'],
    ['a 403 Forbidden', 403, 'Forbidden'],
  ])("reads %s, on a create and on a query, as the channel's token refused", async (_case, status, reason) => {
    upstream.answerJson(status, { code: status, reason, message: 'invalid api key', metadata: { trace_id: 't' } });
    for (const call of [
      () => stack.vd.submit(channel, 'reference2video', {}),
      () => stack.vd.fetch(channel, 'reference2video', '8123'),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(failures.UpstreamCredentialsRefusedError);
      expect(error).toMatchObject({ httpStatus: status, nativeCode: reason });
    }
  });

  it('keeps a 403 CreditInsufficient a refusal: the account out of credit, not its token', async () => {
    upstream.answerJson(403, { code: 403, reason: 'CreditInsufficient', message: 'credit insufficient', metadata: {} });
    const error = await stack.vd.submit(channel, 'reference2video', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(failures.UpstreamRejectedError);
    expect(error).toMatchObject({ httpStatus: 403, nativeCode: 'CreditInsufficient' });
  });

  it('maps 500 to Unavailable, a 2xx without task to unknown outcome, and 404 on a query to TaskNotFound', async () => {
    upstream.answerJson(500, { code: 500, reason: 'InternalServiceFailure' });
    await expect(stack.vd.submit(channel, 'reference2video', {})).rejects.toBeInstanceOf(
      failures.UpstreamUnavailableError,
    );
    upstream.answerJson(200, { state: 'created' });
    await expect(stack.vd.submit(channel, 'reference2video', {})).rejects.toBeInstanceOf(
      failures.UpstreamOutcomeUnknownError,
    );
    upstream.answerJson(404, { code: 404, reason: 'TaskNotFound', message: 'task not found' });
    await expect(stack.vd.fetch(channel, 'reference2video', '1')).rejects.toBeInstanceOf(
      failures.UpstreamTaskNotFoundError,
    );
  });

  it('queries the creations and reads them', async () => {
    upstream.answerJson(200, {
      id: '8123',
      state: 'success',
      err_code: '',
      credits: 20,
      payload: '',
      creations: [{ id: 'c1', url: 'http://x/v.mp4', cover_url: 'http://x/c.png', watermarked_url: 'http://x/w.mp4' }],
    });
    const snapshot = await stack.vd.fetch(channel, 'reference2video', '8123');
    expect(upstream.requests[0]).toMatchObject({ method: 'GET', url: `${VD_PATHS.tasks}/8123/creations` });
    expect(upstream.requests[0].headers.authorization).toBe('Token vd-key-xyz987');
    expect(snapshot).toMatchObject({
      state: 'succeeded',
      videos: [{ id: 'c1', url: 'http://x/v.mp4', coverUrl: 'http://x/c.png', watermarkUrl: 'http://x/w.mp4' }],
      nativeUsage: { credits: 20 },
    });
    expect(snapshot).not.toHaveProperty('failureCode');
  });
});
