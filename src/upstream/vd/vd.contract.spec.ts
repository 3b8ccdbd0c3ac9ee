import { answerWith, fixtureNames, loadFixture } from '../../../test/upstream/contract-fixtures';
import { FakeUpstream, startFakeUpstream } from '../../../test/upstream/fake-upstream';
import { createTestUpstream } from '../../../test/upstream/test-upstream';
import { UpstreamChannel, UpstreamTaskNotFoundError } from '../upstream.types';

/**
 * The client against the vendor's documented answers (test/fixtures/upstream/vd/), not against the simulator: if
 * the simulator and the client drifted together, this still holds them to the documentation.
 */
describe('VdClient against the documented answers', () => {
  let upstream: FakeUpstream;
  let stack: ReturnType<typeof createTestUpstream>;
  let channel: UpstreamChannel;
  const serve = (name: string) => upstream.handle(answerWith(loadFixture('vd', name)));
  const query = () => stack.vd.fetch(channel, 'reference2video', '847254281470410752');
  const cancel = () => stack.vd.cancel(channel, 'reference2video', '847254281470410752');
  const create = () =>
    stack.vd.submit(channel, 'reference2video', { model: 'viduq2', prompt: 'p', images: ['https://x/a.png'] });

  beforeEach(async () => {
    upstream = await startFakeUpstream();
    stack = createTestUpstream();
    channel = { id: 'vd-contract', family: 'vd', baseUrl: upstream.baseUrl, apiKey: 'vd-key' };
  });
  afterEach(async () => {
    stack.close();
    await upstream.close();
  });

  const answers: Record<string, () => Promise<void>> = {
    create: async () => {
      await expect(create()).resolves.toMatchObject({
        upstreamTaskId: '847254281470410752',
        snapshot: { state: 'queued', nativeStatus: 'created', nativeUsage: { credits: 20 } },
      });
    },
    'cancel-accepted': async () => {
      await expect(cancel()).resolves.toBeUndefined();
      expect(upstream.requests.at(-1)).toMatchObject({
        method: 'POST',
        url: '/ent/v2/tasks/847254281470410752/cancel',
        body: { id: '847254281470410752' },
      });
    },
    'cancel-refused': async () => {
      await expect(cancel()).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        httpStatus: 400,
        nativeCode: 'BadRequest',
        message: 'task state is scheduled, can not cancel',
      });
    },
    'creations-cancelled': async () => {
      await expect(query()).resolves.toMatchObject({ state: 'cancelled', nativeStatus: 'failed', videos: [] });
    },
    'creations-queueing': async () => {
      await expect(query()).resolves.toMatchObject({ state: 'queued', nativeStatus: 'queueing', videos: [] });
    },
    'creations-processing': async () => {
      await expect(query()).resolves.toMatchObject({ state: 'running', nativeStatus: 'processing', videos: [] });
    },
    'creations-success': async () => {
      const snapshot = await query();
      expect(snapshot).toMatchObject({ state: 'succeeded', progress: 100, nativeUsage: { credits: 20 } });
      expect(snapshot.videos).toEqual([
        {
          id: '847254536840736768',
          url: 'https://prod-ss-vidu.s3.cn-northwest-1.amazonaws.com.cn/infer/tasks/result.mp4',
          coverUrl: 'https://prod-ss-vidu.s3.cn-northwest-1.amazonaws.com.cn/infer/tasks/result.jpeg',
          watermarkUrl: 'https://prod-ss-vidu.s3.cn-northwest-1.amazonaws.com.cn/infer/tasks/result_wm.mp4',
        },
      ]);
    },
    'creations-failed': async () => {
      await expect(query()).resolves.toMatchObject({
        state: 'failed',
        failureCode: 'ImageAuditFailed',
        failureReason: 'ImageAuditFailed',
      });
    },
    'error-400-bad-request': async () => {
      await expect(create()).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        httpStatus: 400,
        nativeCode: 'BadRequest',
        message: 'duration must be 4 for vidu2.0',
      });
    },
    'error-401-unauthorized': async () => {
      // The channel's own token refused: not a verdict on the request.
      await expect(create()).rejects.toMatchObject({
        name: 'UpstreamCredentialsRefusedError',
        httpStatus: 401,
        nativeCode: 'Unauthorized',
      });
    },
    'error-403-credit-insufficient': async () => {
      // A 403 too, but the account out of credit: a refusal the registry cools the channel down for.
      await expect(create()).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        httpStatus: 403,
        nativeCode: 'CreditInsufficient',
      });
    },
    'error-404-task-not-found': async () => {
      await expect(query()).rejects.toBeInstanceOf(UpstreamTaskNotFoundError);
    },
    'error-429-too-many-requests': async () => {
      await expect(create()).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        httpStatus: 429,
        nativeCode: 'TooManyRequests',
      });
    },
    'error-500-internal': async () => {
      await expect(create()).rejects.toMatchObject({ name: 'UpstreamUnavailableError', httpStatus: 500 });
    },
  };

  it('checks every fixture there is', () => {
    expect(Object.keys(answers).sort()).toEqual(fixtureNames('vd'));
  });

  it.each(Object.keys(answers))('reads %s as documented', async (name) => {
    serve(name);
    await answers[name]();
  });
});
