import { RenewableLinks } from '../../../core/result-keeping/renewable-links';
import { ResultLinks } from '../../../core/result-keeping/result-links';
import { installResultLinks } from '../../../core/result-keeping/result-url';
import { GatewayError } from '../../../platform/errors';
import { ManualClock } from '../../../platform/time/clock';
import { ChannelRegistry } from '../../../upstream/channel-routing/channel-registry';
import { KlClient } from '../../../upstream/kl/kl.client';
import { UpstreamUnavailableError } from '../../../upstream/upstream.types';
import {
  KL_PRESETS_FRESH_MS,
  KL_PRESETS_STALE_MS,
  KL_PRESET_LINK_FRESH_MS,
  KL_PRESET_TRIALS,
  KlPresetsService,
} from './kl-presets.service';

const PRESET = {
  task_id: '1',
  task_status: 'succeed',
  task_status_msg: '',
  task_result: { voices: [{ voice_id: '829', voice_name: 'Warm', trial_url: 'u', owned_by: 'kl' }] },
  created_at: 1,
  updated_at: 1,
};

function setup() {
  const clock = new ManualClock();
  const call = jest.fn<Promise<unknown>, unknown[]>().mockResolvedValue([PRESET]);
  const client = { call } as unknown as KlClient;
  const channels = { forFamily: () => ({ id: 'kl-1' }) } as unknown as ChannelRegistry;
  const renewable = new RenewableLinks();
  const service = new KlPresetsService(client, channels, clock, renewable);
  service.onModuleInit();
  return { clock, call, renewable, service };
}

describe('KlPresetsService', () => {
  it('asks the upstream once while fresh, again after 60 s', async () => {
    const { clock, call, service } = setup();
    expect(await service.page(1, 20)).toEqual([PRESET]);
    await service.page(1, 20);
    expect(call).toHaveBeenCalledTimes(1);
    clock.advance(KL_PRESETS_FRESH_MS);
    await service.page(1, 20);
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('serves the last copy while the upstream fails, 503 without one or once too old', async () => {
    const { clock, call, service } = setup();
    await service.page(1, 20);
    call.mockRejectedValue(new UpstreamUnavailableError('down'));
    clock.advance(KL_PRESETS_FRESH_MS + 1);
    expect(await service.page(1, 20)).toEqual([PRESET]);
    await expect(service.page(2, 20)).rejects.toMatchObject({ status: 503 });
    clock.advance(KL_PRESETS_STALE_MS);
    await expect(service.page(1, 20)).rejects.toBeInstanceOf(GatewayError);
  });

  it('shares one upstream call between concurrent misses and knows official voice IDs', async () => {
    const { call, service } = setup();
    await Promise.all([service.page(1, 500), service.page(1, 500), service.isOfficial('829')]);
    expect(call).toHaveBeenCalledTimes(1);
    expect(await service.isOfficial('829')).toBe(true);
    expect(await service.isOfficial('voice_x_0')).toBe(false);
  });

  describe('trial audio', () => {
    const links = new ResultLinks({ origin: 'https://gw.example.com', secrets: ['k'.repeat(32)], ttlSeconds: 86400 });
    const linked = (n: number) => ({
      ...PRESET,
      task_result: { voices: [{ ...PRESET.task_result.voices[0], trial_url: `https://cdn.example.com/829?v=${n}` }] },
    });
    /** The renewable key of the first voice of a presented page, from its gateway URL. */
    const keyOf = (url: string) => {
      const verdict = links.verify(url.slice('https://gw.example.com/results/'.length));
      if (!verdict.ok || !verdict.renewable) throw new Error(`not a renewable URL: ${url}`);
      expect(verdict.renewable.source).toBe(KL_PRESET_TRIALS);
      return verdict.renewable.key;
    };
    beforeAll(() => installResultLinks(links));
    afterAll(() => installResultLinks(undefined, links));

    it("hands out the gateway's URL, which streams the cached link while fresh, a fresh page's link after", async () => {
      const { clock, call, renewable, service } = setup();
      call.mockResolvedValueOnce([linked(1)]).mockResolvedValueOnce([linked(2)]);
      const [item] = await service.presentedPage(1, 20);
      const url = item.task_result.voices[0].trial_url;
      expect(url).toMatch(/^https:\/\/gw\.example\.com\/results\/r\./);
      expect(url).not.toContain('cdn.example.com');
      const key = keyOf(url);
      clock.advance(KL_PRESET_LINK_FRESH_MS - 1);
      expect(await renewable.current(KL_PRESET_TRIALS, key)).toBe('https://cdn.example.com/829?v=1');
      expect(call).toHaveBeenCalledTimes(1);
      clock.advance(1);
      expect(await renewable.current(KL_PRESET_TRIALS, key)).toBe('https://cdn.example.com/829?v=2');
      expect(call).toHaveBeenCalledTimes(2);
      expect(call.mock.calls[1][3]).toEqual({ pageNum: 1, pageSize: 20 });
    });

    it('falls back to the cached link while the upstream fails; knows no other voice or key', async () => {
      const { clock, call, renewable, service } = setup();
      call.mockResolvedValueOnce([linked(1)]);
      const key = keyOf((await service.presentedPage(1, 20))[0].task_result.voices[0].trial_url);
      call.mockRejectedValue(new UpstreamUnavailableError('down'));
      clock.advance(KL_PRESET_LINK_FRESH_MS);
      expect(await renewable.current(KL_PRESET_TRIALS, key)).toBe('https://cdn.example.com/829?v=1');
      expect(await renewable.current(KL_PRESET_TRIALS, '1.20.OTk5')).toBeUndefined(); // voice 999
      expect(await renewable.current(KL_PRESET_TRIALS, 'not a key')).toBeUndefined();
      expect(await renewable.current(KL_PRESET_TRIALS, '2.20.ODI5')).toBeUndefined(); // a page never fetched
    });
  });

  it('passes the upstream trial link through when the gateway serves no results (RESULT_STORE=off)', async () => {
    const { service } = setup();
    expect((await service.presentedPage(1, 20))[0].task_result.voices[0].trial_url).toBe('u');
  });
});
