import { writeFileSync } from 'fs';
import { join } from 'path';
import { FAMILY_REGISTRY } from '../../test/support/families';
import { tempDirs } from '../../test/support/temp-dirs';
import { ChannelConfigError } from '../upstream/channel-routing/channel-config-error';
import { resolveChannels } from './resolve-channels';

const mapsDir = tempDirs('gw-maps-');

describe('resolveChannels', () => {
  it('gives real channels the vendors’ names and the simulator’s channels the identity map', async () => {
    const { channels, simulator } = await resolveChannels(
      { UPSTREAM_AX_BASE_URL: 'https://dashscope-intl.aliyuncs.com', UPSTREAM_AX_API_KEY: 'k' },
      100,
    );
    try {
      expect(simulator?.families).toEqual(['kl', 'vd']);
      const byId = Object.fromEntries(channels.map((channel) => [channel.id, channel]));
      expect(byId['ax-default']).toMatchObject({ modelMap: { 'wx2.7-r2v': 'wan2.7-r2v' } });
      expect(byId['ax-default'].simulated).toBeUndefined();
      expect(byId['vd-default']).toMatchObject({ simulated: true, baseUrl: simulator?.endpoints.vd.baseUrl });
      expect(byId['vd-default'].modelMap).toEqual({
        'vdq3-mix': 'vdq3-mix',
        'vdq3-turbo': 'vdq3-turbo',
        vdq3: 'vdq3',
        'vdq2-pro': 'vdq2-pro',
        vdq2: 'vdq2',
        vdq1: 'vdq1',
        'vd2.0': 'vd2.0',
      });
      expect(byId['kl-default'].modelMap).toEqual({ 'kl-v1': 'kl-v1', 'kl-v1-6': 'kl-v1-6' });
    } finally {
      await simulator?.close();
    }
  });

  it('stops the start when a real channel cannot name a catalogue model upstream', async () => {
    // An operator's map file that names only one vd model.
    const file = join(mapsDir(), 'models.json');
    writeFileSync(file, JSON.stringify({ vd: { vdq3: 'viduq3' } }));
    const env = {
      UPSTREAM_VD_BASE_URL: 'https://api.vidu.com',
      UPSTREAM_VD_API_KEY: 'k',
      UPSTREAM_MODEL_MAP_FILE: file,
    };
    await expect(resolveChannels(env, 100, FAMILY_REGISTRY.all())).rejects.toThrow(ChannelConfigError);
    await expect(resolveChannels(env, 100, FAMILY_REGISTRY.all())).rejects.toThrow(
      /channel vd-default has no upstream name for vdq3-mix/,
    );
  });

  it('stops the start when a channel lists a model of another family', async () => {
    const env = { UPSTREAM_AX_BASE_URL: 'https://dashscope-intl.aliyuncs.com', UPSTREAM_AX_API_KEY: 'k' };
    await expect(
      resolveChannels({ ...env, UPSTREAM_AX_MODELS: 'wx2.7-r2v,vdq3' }, 100, FAMILY_REGISTRY.all()),
    ).rejects.toThrow(/channel ax-default: models names vdq3, not a model of family ax/);
  });

  it('starts with the shipped vendor map for every catalogue model', async () => {
    const env = {
      UPSTREAM_KL_BASE_URL: 'https://api-singapore.klingai.com',
      UPSTREAM_KL_API_KEY: 'k',
      UPSTREAM_AX_BASE_URL: 'https://dashscope-intl.aliyuncs.com',
      UPSTREAM_AX_API_KEY: 'k',
      UPSTREAM_VD_BASE_URL: 'https://api.vidu.com',
      UPSTREAM_VD_API_KEY: 'k',
    };
    const { simulator, channels } = await resolveChannels(env, 100, FAMILY_REGISTRY.all());
    expect(simulator).toBeNull();
    expect(channels.map((c) => c.id).sort()).toEqual(['ax-default', 'kl-default', 'vd-default']);
  });
});
