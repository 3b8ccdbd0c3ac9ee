import { answerWith, fixtureNames, loadFixture } from '../../../test/upstream/contract-fixtures';
import { FakeUpstream, startFakeUpstream } from '../../../test/upstream/fake-upstream';
import { createTestUpstream } from '../../../test/upstream/test-upstream';
import { UpstreamChannel, UpstreamTaskLostError } from '../upstream.types';

/**
 * The client against the vendor's documented answers (test/fixtures/upstream/ax/), not against the simulator: if
 * the simulator and the client drifted together, this still holds them to the documentation.
 */
describe('AxClient against the documented answers', () => {
  let upstream: FakeUpstream;
  let stack: ReturnType<typeof createTestUpstream>;
  let channel: UpstreamChannel;
  const serve = (name: string) => upstream.handle(answerWith(loadFixture('ax', name)));
  const query = () => stack.ax.fetch(channel, 'r2v', '0385dc79-5ff8-4d82-bcb6-xxxxxx');
  const cancel = () => stack.ax.cancel(channel, 'r2v', '0385dc79-5ff8-4d82-bcb6-xxxxxx');
  const create = () =>
    stack.ax.submit(channel, 'r2v', {
      model: 'wan2.6-r2v',
      input: { prompt: 'p', reference_urls: ['https://x/a.png'] },
    });

  beforeEach(async () => {
    upstream = await startFakeUpstream();
    stack = createTestUpstream();
    channel = { id: 'ax-contract', family: 'ax', baseUrl: upstream.baseUrl, apiKey: 'ax-key' };
  });
  afterEach(async () => {
    stack.close();
    await upstream.close();
  });

  const answers: Record<string, () => Promise<void>> = {
    'create-pending': async () => {
      await expect(create()).resolves.toMatchObject({
        upstreamTaskId: '0385dc79-5ff8-4d82-bcb6-xxxxxx',
        snapshot: { state: 'queued', nativeStatus: 'PENDING' },
      });
    },
    'query-pending': async () => {
      await expect(query()).resolves.toMatchObject({ state: 'queued', nativeStatus: 'PENDING', progress: 0 });
    },
    'query-running': async () => {
      await expect(query()).resolves.toMatchObject({ state: 'running', nativeStatus: 'RUNNING' });
    },
    'query-succeeded': async () => {
      const snapshot = await query();
      expect(snapshot).toMatchObject({
        state: 'succeeded',
        progress: 100,
        nativeUsage: { duration: 15, input_video_duration: 5, output_video_duration: 10, video_count: 1, SR: 720 },
      });
      // The output's length is output_video_duration, never usage.duration (input plus output).
      expect(snapshot.videos).toEqual([
        { url: 'https://dashscope-result-sh.oss-accelerate.aliyuncs.com/xxx.mp4?Expires=xxx', durationSeconds: 10 },
      ]);
    },
    'query-failed': async () => {
      await expect(query()).resolves.toMatchObject({
        state: 'failed',
        failureCode: 'InvalidParameter',
        failureReason: 'The size is not match xxxxxx',
      });
    },
    'query-canceled': async () => {
      await expect(query()).resolves.toMatchObject({ state: 'cancelled', nativeStatus: 'CANCELED' });
    },
    'cancel-accepted': async () => {
      await expect(cancel()).resolves.toBeUndefined();
      expect(upstream.requests.at(-1)).toMatchObject({
        method: 'POST',
        url: '/api/v1/tasks/0385dc79-5ff8-4d82-bcb6-xxxxxx/cancel',
        headers: { authorization: 'Bearer ax-key' },
      });
    },
    'cancel-refused': async () => {
      await expect(cancel()).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        httpStatus: 400,
        nativeCode: 'UnsupportedOperation',
        message: 'Failed to cancel the task, please confirm if the task is in PENDING status.',
      });
    },
    'query-unknown': async () => {
      await expect(query()).rejects.toBeInstanceOf(UpstreamTaskLostError);
    },
    'error-400-invalid-parameter': async () => {
      await expect(create()).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        httpStatus: 400,
        nativeCode: 'InvalidParameter',
        message: 'please provide reference_video_urls or reference_urls',
      });
    },
    'error-400-data-inspection': async () => {
      await expect(create()).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        httpStatus: 400,
        nativeCode: 'DataInspectionFailed',
      });
    },
    'error-401-invalid-api-key': async () => {
      await expect(create()).rejects.toMatchObject({
        name: 'UpstreamCredentialsRefusedError',
        httpStatus: 401,
        nativeCode: 'InvalidApiKey',
      });
    },
    'error-403-access-denied': async () => {
      await expect(create()).rejects.toMatchObject({
        name: 'UpstreamCredentialsRefusedError',
        httpStatus: 403,
        nativeCode: 'AccessDenied',
      });
    },
    'error-429-throttling': async () => {
      await expect(create()).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        httpStatus: 429,
        nativeCode: 'Throttling.RateQuota',
      });
    },
    'error-500-internal': async () => {
      await expect(create()).rejects.toMatchObject({ name: 'UpstreamUnavailableError', httpStatus: 500 });
    },
  };

  it('checks every fixture there is', () => {
    expect(Object.keys(answers).sort()).toEqual(fixtureNames('ax'));
  });

  it.each(Object.keys(answers))('reads %s as documented', async (name) => {
    serve(name);
    await answers[name]();
  });
});
