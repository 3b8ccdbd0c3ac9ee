import { loadChannels } from '../upstream/channel-routing/load-channels';
import { simulatorUpstreamEnv } from './upstream-env';

describe('simulatorUpstreamEnv', () => {
  it('names one channel per family, with the credentials each protocol authenticates with', () => {
    const sim = {
      endpoints: {
        kl: { baseUrl: 'http://127.0.0.1:1', apiKey: 'kl-key', accessKey: 'kl-ak', secretKey: 'kl-sk' },
        ax: { baseUrl: 'http://127.0.0.1:2', apiKey: 'ax-key' },
        vd: { baseUrl: 'http://127.0.0.1:3', apiKey: 'vd-key' },
      },
    };
    const channels = loadChannels({
      ...simulatorUpstreamEnv(sim),
      UPSTREAM_MODEL_MAP_FILE: 'config/upstream-models.json',
    });
    expect(channels.map((c) => [c.id, c.baseUrl])).toEqual([
      ['kl-default', 'http://127.0.0.1:1'],
      ['ax-default', 'http://127.0.0.1:2'],
      ['vd-default', 'http://127.0.0.1:3'],
    ]);
    expect(channels[0]).toMatchObject({ accessKey: 'kl-ak', secretKey: 'kl-sk' });
    expect(channels[1]).toMatchObject({ apiKey: 'ax-key' });
    expect(channels[2]).toMatchObject({ apiKey: 'vd-key' });
  });

  it('adds the API key of a key-pair vendor only when asked', () => {
    const sim = {
      endpoints: { kl: { baseUrl: 'http://127.0.0.1:1', apiKey: 'kl-key', accessKey: 'a', secretKey: 's' } },
    };
    expect(simulatorUpstreamEnv(sim)).not.toHaveProperty('UPSTREAM_KL_API_KEY');
    expect(simulatorUpstreamEnv(sim, { withApiKeys: true })).toMatchObject({
      UPSTREAM_KL_ACCESS_KEY: 'a',
      UPSTREAM_KL_SECRET_KEY: 's',
      UPSTREAM_KL_API_KEY: 'kl-key',
    });
  });
});
