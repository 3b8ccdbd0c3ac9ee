import { GatewayError } from '../../../platform/errors';
import { ManualClock } from '../../../platform/time/clock';
import { ChannelRegistry } from '../../../upstream/channels/channel-registry';
import { KlClient } from '../../../upstream/kl/kl.client';
import { UpstreamUnavailableError } from '../../../upstream/upstream.types';
import { KL_PRESETS_FRESH_MS, KL_PRESETS_STALE_MS, KlPresetsService } from './kl-presets.service';

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
  return { clock, call, service: new KlPresetsService(client, channels, clock) };
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
});
