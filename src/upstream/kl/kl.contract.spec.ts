import { answerWith, fixtureNames, loadFixture } from '../../../test/upstream/contract-fixtures';
import { FakeUpstream, startFakeUpstream } from '../../../test/upstream/fake-upstream';
import { createTestUpstream } from '../../../test/upstream/test-upstream';
import {
  UpstreamChannel,
  UpstreamRejectedError,
  UpstreamTaskNotFoundError,
  UpstreamUnavailableError,
} from '../upstream.types';
import { KL_PATHS } from './kl.api';

/**
 * The client against the vendor's documented answers (test/fixtures/upstream/kl/), not against the simulator: if
 * the simulator and the client drifted together, this still holds them to the documentation.
 */
describe('KlClient against the documented answers', () => {
  let upstream: FakeUpstream;
  let stack: ReturnType<typeof createTestUpstream>;
  let channel: UpstreamChannel;
  const serve = (name: string) => upstream.handle(answerWith(loadFixture('kl', name)));

  beforeEach(async () => {
    upstream = await startFakeUpstream();
    stack = createTestUpstream();
    channel = { id: 'kl-contract', family: 'kl', baseUrl: upstream.baseUrl, apiKey: 'kl-key' };
  });
  afterEach(async () => {
    stack.close();
    await upstream.close();
  });

  const answers: Record<string, () => Promise<void>> = {
    'create-multi-elements': async () => {
      await expect(stack.kl.submit(channel, 'multi_elements', { model_name: 'kling-v1-6' })).resolves.toMatchObject({
        upstreamTaskId: '842262441917521987',
        snapshot: { state: 'queued', nativeStatus: 'submitted', progress: 0 },
      });
    },
    'query-submitted': async () => {
      await expect(stack.kl.fetch(channel, 'multi_elements', '842262441917521987')).resolves.toMatchObject({
        state: 'queued',
        nativeStatus: 'submitted',
      });
    },
    'query-processing': async () => {
      await expect(stack.kl.fetch(channel, 'multi_elements', '842262441917521987')).resolves.toMatchObject({
        state: 'running',
        nativeStatus: 'processing',
      });
    },
    'query-succeed': async () => {
      const snapshot = await stack.kl.fetch(channel, 'multi_elements', '842262441917521987');
      expect(snapshot).toMatchObject({
        state: 'succeeded',
        progress: 100,
        upstreamTaskId: '842262441917521987',
        nativeUsage: { final_unit_deduction: '2.5' },
      });
      expect(snapshot.videos).toEqual([
        {
          id: '842262442152402982',
          url: 'https://p1.a.kwimgs.com/bs2/upload-ylab-stunt/se/ai_portal_queue_mmu_video_upscale/result.mp4',
          watermarkUrl:
            'https://p1.a.kwimgs.com/bs2/upload-ylab-stunt/se/ai_portal_queue_mmu_video_upscale/result_wm.mp4',
          durationSeconds: 5.1,
        },
      ]);
    },
    'query-failed': async () => {
      await expect(stack.kl.fetch(channel, 'multi_elements', '842262441917521987')).resolves.toMatchObject({
        state: 'failed',
        failureReason: 'Failure to pass the risk control system',
      });
    },
    'voice-succeed': async () => {
      const snapshot = await stack.kl.fetch(channel, 'custom_voices', '850035424108654601');
      expect(snapshot.state).toBe('succeeded');
      expect(snapshot.voices).toEqual([
        {
          voiceId: '850035424129626113',
          voiceName: 'Narrator',
          trialUrl: 'https://p2-kling.klingai.com/kcdn/voice/trial.mp3',
          ownedBy: '20240601',
        },
      ]);
    },
    'presets-voices': async () => {
      const data = await stack.kl.call<Array<{ task_result: { voices: Array<{ owned_by: string }> } }>>(
        channel,
        'GET',
        KL_PATHS.presetsVoices,
        { pageNum: 1, pageSize: 30 },
      );
      expect(data[0].task_result.voices[0]).toMatchObject({ voice_id: '829826007624355840', owned_by: 'kl' });
    },
    'error-400-1201': async () => {
      await expect(stack.kl.submit(channel, 'multi_elements', {})).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        httpStatus: 400,
        nativeCode: 1201,
      });
    },
    'error-401-1000': async () => {
      await expect(stack.kl.submit(channel, 'multi_elements', {})).rejects.toMatchObject({
        name: 'UpstreamCredentialsRefusedError',
        httpStatus: 401,
        nativeCode: 1000,
        message: expect.stringContaining('Authentication failed'),
      });
    },
    'error-403-1103': async () => {
      await expect(stack.kl.submit(channel, 'custom_voices', {})).rejects.toMatchObject({
        name: 'UpstreamCredentialsRefusedError',
        httpStatus: 403,
        nativeCode: 1103,
      });
    },
    'error-404-1202': async () => {
      const error = await stack.kl.fetch(channel, 'multi_elements', '1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpstreamRejectedError);
      expect(error).toMatchObject({ httpStatus: 404, nativeCode: 1202 });
    },
    'error-404-1203': async () => {
      await expect(stack.kl.fetch(channel, 'multi_elements', '1')).rejects.toBeInstanceOf(UpstreamTaskNotFoundError);
      // On a non-task call the same answer is a refusal (an unknown session or voice), never "task lost".
      await expect(stack.kl.call(channel, 'POST', KL_PATHS.clearSelection, { session_id: 's' })).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        nativeCode: 1203,
      });
    },
    'error-429-1102': async () => {
      await expect(stack.kl.submit(channel, 'multi_elements', {})).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        httpStatus: 429,
        nativeCode: 1102,
      });
    },
    'error-429-1302': async () => {
      await expect(stack.kl.submit(channel, 'multi_elements', {})).rejects.toMatchObject({
        name: 'UpstreamRejectedError',
        httpStatus: 429,
        nativeCode: 1302,
      });
    },
    'error-500-5000': async () => {
      await expect(stack.kl.submit(channel, 'multi_elements', {})).rejects.toMatchObject({
        name: 'UpstreamUnavailableError',
        httpStatus: 500,
      });
    },
    'error-503-5001': async () => {
      await expect(stack.kl.fetch(channel, 'multi_elements', '1')).rejects.toBeInstanceOf(UpstreamUnavailableError);
    },
  };

  it('checks every fixture there is', () => {
    expect(Object.keys(answers).sort()).toEqual(fixtureNames('kl'));
  });

  it.each(Object.keys(answers))('reads %s as documented', async (name) => {
    serve(name);
    await answers[name]();
  });
});
