import { ChannelConfigError, loadChannels } from './load-channels';

describe('loadChannels', () => {
  it('returns no channels when nothing is configured', () => {
    expect(loadChannels({})).toEqual([]);
    expect(loadChannels({ UPSTREAM_KL_BASE_URL: '  ', UPSTREAM_CHANNELS: '' })).toEqual([]);
  });

  it('reads one default channel per configured family', () => {
    const channels = loadChannels({
      UPSTREAM_KL_BASE_URL: 'https://kl.example/',
      UPSTREAM_KL_ACCESS_KEY: 'ak',
      UPSTREAM_KL_SECRET_KEY: 'sk',
      UPSTREAM_AX_BASE_URL: 'https://ax.example',
      UPSTREAM_AX_API_KEY: 'ax-key',
      UPSTREAM_VD_BASE_URL: 'http://127.0.0.1:4003',
      UPSTREAM_VD_API_KEY: 'vd-key',
    });
    expect(channels).toEqual([
      { id: 'kl-default', family: 'kl', baseUrl: 'https://kl.example', accessKey: 'ak', secretKey: 'sk' },
      { id: 'ax-default', family: 'ax', baseUrl: 'https://ax.example', apiKey: 'ax-key' },
      { id: 'vd-default', family: 'vd', baseUrl: 'http://127.0.0.1:4003', apiKey: 'vd-key' },
    ]);
  });

  it('adds the channels of UPSTREAM_CHANNELS', () => {
    const channels = loadChannels({
      UPSTREAM_AX_BASE_URL: 'https://ax.example',
      UPSTREAM_AX_API_KEY: 'k1',
      UPSTREAM_CHANNELS: JSON.stringify([{ id: 'ax-backup', family: 'ax', baseUrl: 'https://ax2.example', apiKey: 'k2', modelMap: { 'wx2.7-r2v': 'wan2.7-r2v' } }]),
    });
    expect(channels.map((c) => c.id)).toEqual(['ax-default', 'ax-backup']);
    expect(channels[1].modelMap).toEqual({ 'wx2.7-r2v': 'wan2.7-r2v' });
  });

  it.each([
    [{ UPSTREAM_KL_API_KEY: 'k' }, /UPSTREAM_KL_BASE_URL is required/],
    [{ UPSTREAM_AX_BASE_URL: 'https://ax.example' }, /UPSTREAM_AX_API_KEY is required/],
    [{ UPSTREAM_KL_BASE_URL: 'https://kl.example' }, /UPSTREAM_KL_API_KEY \(or UPSTREAM_KL_ACCESS_KEY and UPSTREAM_KL_SECRET_KEY\) is required/],
    [{ UPSTREAM_KL_BASE_URL: 'https://kl.example', UPSTREAM_KL_ACCESS_KEY: 'ak' }, /UPSTREAM_KL_SECRET_KEY is required/],
    [{ UPSTREAM_VD_BASE_URL: 'ftp://vd.example', UPSTREAM_VD_API_KEY: 'k' }, /UPSTREAM_VD_BASE_URL must be an absolute http\(s\) URL/],
    [{ UPSTREAM_VD_BASE_URL: 'not a url', UPSTREAM_VD_API_KEY: 'k' }, /UPSTREAM_VD_BASE_URL must be an absolute/],
    [{ UPSTREAM_VD_BASE_URL: 'https://user:pw@vd.example', UPSTREAM_VD_API_KEY: 'k' }, /UPSTREAM_VD_BASE_URL must not contain credentials/],
    [{ UPSTREAM_CHANNELS: '[{"id": "x",' }, /UPSTREAM_CHANNELS is not valid JSON/],
    [{ UPSTREAM_CHANNELS: '{"id": "x"}' }, /UPSTREAM_CHANNELS must be a JSON array/],
    [{ UPSTREAM_CHANNELS: '[42]' }, /UPSTREAM_CHANNELS\[0\] must be an object/],
    [{ UPSTREAM_CHANNELS: '[{"family": "ax", "baseUrl": "https://a", "apiKey": "k"}]' }, /UPSTREAM_CHANNELS\[0\]\.id is required/],
    [{ UPSTREAM_CHANNELS: '[{"id": "a", "family": "zz", "baseUrl": "https://a", "apiKey": "k"}]' }, /UPSTREAM_CHANNELS\[0\]\.family must be one of kl, ax, vd/],
    [{ UPSTREAM_CHANNELS: '[{"id": "a", "family": "ax", "apiKey": "k"}]' }, /UPSTREAM_CHANNELS\[0\]\.baseUrl is required/],
    [{ UPSTREAM_CHANNELS: '[{"id": "a", "family": "ax", "baseUrl": "https://a"}]' }, /UPSTREAM_CHANNELS\[0\]\.apiKey is required/],
    [{ UPSTREAM_CHANNELS: '[{"id": "a", "family": "ax", "baseUrl": "https://a", "apiKey": 5}]' }, /UPSTREAM_CHANNELS\[0\]\.apiKey must be a string/],
    [{ UPSTREAM_CHANNELS: '[{"id": "a", "family": "ax", "baseUrl": "https://a", "apiKey": "k", "apikey": "k"}]' }, /UPSTREAM_CHANNELS\[0\]\.apikey is not a channel field/],
    [{ UPSTREAM_CHANNELS: '[{"id": "a", "family": "ax", "baseUrl": "https://a", "apiKey": "k", "modelMap": {"m": 1}}]' }, /UPSTREAM_CHANNELS\[0\]\.modelMap\.m must be a non-empty string/],
    [{ UPSTREAM_CHANNELS: '[{"id": "a", "family": "vd", "baseUrl": "https://a", "accessKey": "ak", "secretKey": "sk"}]' }, /only used by family kl/],
    [{ UPSTREAM_AX_BASE_URL: 'https://a', UPSTREAM_AX_API_KEY: 'k', UPSTREAM_CHANNELS: '[{"id": "ax-default", "family": "ax", "baseUrl": "https://b", "apiKey": "k"}]' }, /"ax-default" is used twice/],
  ])('rejects %j', (env, message) => {
    expect(() => loadChannels(env)).toThrow(ChannelConfigError);
    expect(() => loadChannels(env)).toThrow(message);
  });

  it('never puts a secret into the error message', () => {
    const env = { UPSTREAM_CHANNELS: '[{"id": "a", "family": "ax", "baseUrl": "https://a", "apiKey": "super-secret-key", oops}]' };
    expect(() => loadChannels(env)).toThrow(ChannelConfigError);
    try {
      loadChannels(env);
    } catch (error) {
      expect((error as Error).message).not.toContain('super-secret-key');
    }
  });
});
