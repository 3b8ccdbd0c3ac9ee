import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDirs } from '../../../test/support/temp-dirs';
import type { UpstreamVendor } from '../vendor';
import { vendorEnvNames } from '../vendor';
import { UPSTREAM_VENDORS } from '../vendors';
import { ChannelConfigError, loadChannels } from './load-channels';

const SHIPPED = JSON.parse(readFileSync(join(__dirname, '../../../config/upstream-models.json'), 'utf8'));
const modelsDir = tempDirs('models-');

describe('loadChannels', () => {
  it('returns no channels when nothing is configured, without needing the model map file', () => {
    expect(loadChannels({})).toEqual([]);
    expect(
      loadChannels({
        UPSTREAM_KL_BASE_URL: '  ',
        UPSTREAM_CHANNELS: '',
        UPSTREAM_MODEL_MAP_FILE: '/nowhere/models.json',
      }),
    ).toEqual([]);
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
      {
        id: 'kl-default',
        family: 'kl',
        baseUrl: 'https://kl.example',
        accessKey: 'ak',
        secretKey: 'sk',
        modelMap: SHIPPED.kl,
      },
      { id: 'ax-default', family: 'ax', baseUrl: 'https://ax.example', apiKey: 'ax-key', modelMap: SHIPPED.ax },
      { id: 'vd-default', family: 'vd', baseUrl: 'http://127.0.0.1:4003', apiKey: 'vd-key', modelMap: SHIPPED.vd },
    ]);
  });

  it('adds the channels of UPSTREAM_CHANNELS, their own modelMap entries over the family default', () => {
    const channels = loadChannels({
      UPSTREAM_AX_BASE_URL: 'https://ax.example',
      UPSTREAM_AX_API_KEY: 'k1',
      UPSTREAM_CHANNELS: JSON.stringify([
        {
          id: 'ax-backup',
          family: 'ax',
          baseUrl: 'https://ax2.example',
          apiKey: 'k2',
          modelMap: { 'wx2.7-r2v': 'relay-wan27' },
        },
      ]),
    });
    expect(channels.map((c) => c.id)).toEqual(['ax-default', 'ax-backup']);
    expect(channels[0].modelMap).toEqual(SHIPPED.ax);
    expect(channels[1].modelMap).toEqual({ ...SHIPPED.ax, 'wx2.7-r2v': 'relay-wan27' });
  });

  describe('model maps', () => {
    const ax = { UPSTREAM_AX_BASE_URL: 'https://ax.example', UPSTREAM_AX_API_KEY: 'k' };

    it('ships the vendors’ documented names', () => {
      const [kl, axChannel, vd] = loadChannels({
        ...ax,
        UPSTREAM_KL_BASE_URL: 'https://kl.example',
        UPSTREAM_KL_API_KEY: 'k',
        UPSTREAM_VD_BASE_URL: 'https://vd.example',
        UPSTREAM_VD_API_KEY: 'k',
      });
      expect(kl.modelMap).toEqual({ 'kl-v1': 'kling-v1', 'kl-v1-6': 'kling-v1-6' });
      expect(axChannel.modelMap).toMatchObject({
        'wx2.7-r2v': 'wan2.7-r2v',
        'wx2.6-r2v': 'wan2.6-r2v',
        'wx2.6-r2v-flash': 'wan2.6-r2v-flash',
      });
      expect(vd.modelMap).toMatchObject({
        'vdq3-mix': 'viduq3-mix',
        'vdq3-turbo': 'viduq3-turbo',
        vdq3: 'viduq3',
        'vdq2-pro': 'viduq2-pro',
        vdq2: 'viduq2',
        vdq1: 'viduq1',
        'vd2.0': 'vidu2.0',
      });
    });

    it('lays UPSTREAM_<FAMILY>_MODEL_MAP over the file for every channel of that family only', () => {
      const channels = loadChannels({
        ...ax,
        UPSTREAM_AX_MODEL_MAP: '{"wx2.6-r2v": "wan2.6-r2v-preview", "wx-extra": "wan-extra"}',
        UPSTREAM_CHANNELS: JSON.stringify([
          { id: 'vd-2', family: 'vd', baseUrl: 'https://vd.example', apiKey: 'k' },
          { id: 'ax-2', family: 'ax', baseUrl: 'https://ax2.example', apiKey: 'k' },
        ]),
      });
      expect(channels[0].modelMap).toEqual({
        ...SHIPPED.ax,
        'wx2.6-r2v': 'wan2.6-r2v-preview',
        'wx-extra': 'wan-extra',
      });
      expect(channels[1].modelMap).toEqual(SHIPPED.vd);
      expect(channels[2].modelMap).toEqual(channels[0].modelMap);
    });

    it('reads the file UPSTREAM_MODEL_MAP_FILE names instead of the shipped one', () => {
      const dir = modelsDir();
      const file = join(dir, 'models.json');
      writeFileSync(file, JSON.stringify({ $comment: 'mine', ax: { 'wx2.7-r2v': 'my-wan' } }));
      expect(loadChannels({ ...ax, UPSTREAM_MODEL_MAP_FILE: file })[0].modelMap).toEqual({ 'wx2.7-r2v': 'my-wan' });
    });

    it.each([
      [{ UPSTREAM_MODEL_MAP_FILE: '/nowhere/models.json' }, /model map file \/nowhere\/models.json cannot be read/],
      [{ UPSTREAM_AX_MODEL_MAP: '{"wx2.7-r2v": ' }, /UPSTREAM_AX_MODEL_MAP is not valid JSON/],
      [
        { UPSTREAM_AX_MODEL_MAP: '["wan2.7-r2v"]' },
        /UPSTREAM_AX_MODEL_MAP must be an object of public name -> upstream name/,
      ],
      [{ UPSTREAM_AX_MODEL_MAP: '{"wx2.7-r2v": ""}' }, /UPSTREAM_AX_MODEL_MAP\.wx2\.7-r2v must be a non-empty string/],
    ])('refuses a bad model map %j', (env, message) => {
      expect(() => loadChannels({ ...ax, ...env })).toThrow(ChannelConfigError);
      expect(() => loadChannels({ ...ax, ...env })).toThrow(message);
    });

    it.each([
      ['[1]', /must hold a JSON object/],
      ['{"zz": {}}', /"zz" is not an upstream family/],
      ['{"vd": {"vdq3": 3}}', /: vd\.vdq3 must be a non-empty string/],
    ])('refuses a bad model map file %s', (text, message) => {
      const file = join(modelsDir(), 'models.json');
      writeFileSync(file, text);
      expect(() => loadChannels({ ...ax, UPSTREAM_MODEL_MAP_FILE: file })).toThrow(message);
    });
  });

  describe('base URLs', () => {
    it.each([
      [
        'KL',
        'https://api-singapore.klingai.com/v1',
        /UPSTREAM_KL_BASE_URL must not end in \/v1: the kl client adds \/v1 itself \(use https:\/\/api-singapore\.klingai\.com\)/,
      ],
      [
        'AX',
        'https://dashscope-intl.aliyuncs.com/api/v1/',
        /UPSTREAM_AX_BASE_URL must not end in \/api\/v1: .* \(use https:\/\/dashscope-intl\.aliyuncs\.com\)/,
      ],
      [
        'AX',
        'https://relay.example/wan/api',
        /UPSTREAM_AX_BASE_URL must not end in \/api: .* \(use https:\/\/relay\.example\/wan\)/,
      ],
      ['VD', 'https://api.vidu.com/ent/v2', /UPSTREAM_VD_BASE_URL must not end in \/ent\/v2/],
      ['VD', 'https://api.vidu.com/ENT', /UPSTREAM_VD_BASE_URL must not end in \/ent/],
    ])('refuses a %s base URL that already ends in the client’s own segments: %s', (family, baseUrl, message) => {
      const env = { [`UPSTREAM_${family}_BASE_URL`]: baseUrl, [`UPSTREAM_${family}_API_KEY`]: 'k' };
      expect(() => loadChannels(env)).toThrow(ChannelConfigError);
      expect(() => loadChannels(env)).toThrow(message);
    });

    it('refuses it in UPSTREAM_CHANNELS too, and accepts segments of another family or a sub-path', () => {
      expect(() =>
        loadChannels({
          UPSTREAM_CHANNELS: '[{"id": "a", "family": "vd", "baseUrl": "https://v/ent/v2", "apiKey": "k"}]',
        }),
      ).toThrow(/UPSTREAM_CHANNELS\[0\]\.baseUrl must not end in \/ent\/v2/);
      const channels = loadChannels({
        UPSTREAM_KL_BASE_URL: 'https://relay.example/kling',
        UPSTREAM_KL_API_KEY: 'k',
        UPSTREAM_AX_BASE_URL: 'https://relay.example/v1',
        UPSTREAM_AX_API_KEY: 'k',
        UPSTREAM_VD_BASE_URL: 'https://relay.example/v2/',
        UPSTREAM_VD_API_KEY: 'k',
      });
      expect(channels.map((c) => c.baseUrl)).toEqual([
        'https://relay.example/kling',
        'https://relay.example/v1',
        'https://relay.example/v2',
      ]);
    });
  });

  it.each([
    [{ UPSTREAM_KL_API_KEY: 'k' }, /UPSTREAM_KL_BASE_URL is required/],
    [{ UPSTREAM_AX_BASE_URL: 'https://ax.example' }, /UPSTREAM_AX_API_KEY is required/],
    [
      { UPSTREAM_KL_BASE_URL: 'https://kl.example' },
      /UPSTREAM_KL_API_KEY \(or UPSTREAM_KL_ACCESS_KEY and UPSTREAM_KL_SECRET_KEY\) is required/,
    ],
    [
      { UPSTREAM_KL_BASE_URL: 'https://kl.example', UPSTREAM_KL_ACCESS_KEY: 'ak' },
      /UPSTREAM_KL_SECRET_KEY is required/,
    ],
    [
      { UPSTREAM_VD_BASE_URL: 'ftp://vd.example', UPSTREAM_VD_API_KEY: 'k' },
      /UPSTREAM_VD_BASE_URL must be an absolute http\(s\) URL/,
    ],
    [{ UPSTREAM_VD_BASE_URL: 'not a url', UPSTREAM_VD_API_KEY: 'k' }, /UPSTREAM_VD_BASE_URL must be an absolute/],
    [
      { UPSTREAM_VD_BASE_URL: 'https://user:pw@vd.example', UPSTREAM_VD_API_KEY: 'k' },
      /UPSTREAM_VD_BASE_URL must not contain credentials/,
    ],
    [{ UPSTREAM_CHANNELS: '[{"id": "x",' }, /UPSTREAM_CHANNELS is not valid JSON/],
    [{ UPSTREAM_CHANNELS: '{"id": "x"}' }, /UPSTREAM_CHANNELS must be a JSON array/],
    [{ UPSTREAM_CHANNELS: '[42]' }, /UPSTREAM_CHANNELS\[0\] must be an object/],
    [
      { UPSTREAM_CHANNELS: '[{"family": "ax", "baseUrl": "https://a", "apiKey": "k"}]' },
      /UPSTREAM_CHANNELS\[0\]\.id is required/,
    ],
    [
      { UPSTREAM_CHANNELS: '[{"id": "a", "family": "zz", "baseUrl": "https://a", "apiKey": "k"}]' },
      /UPSTREAM_CHANNELS\[0\]\.family must be one of kl, ax, vd/,
    ],
    [
      { UPSTREAM_CHANNELS: '[{"id": "a", "family": "ax", "apiKey": "k"}]' },
      /UPSTREAM_CHANNELS\[0\]\.baseUrl is required/,
    ],
    [
      { UPSTREAM_CHANNELS: '[{"id": "a", "family": "ax", "baseUrl": "https://a"}]' },
      /UPSTREAM_CHANNELS\[0\]\.apiKey is required/,
    ],
    [
      { UPSTREAM_CHANNELS: '[{"id": "a", "family": "ax", "baseUrl": "https://a", "apiKey": 5}]' },
      /UPSTREAM_CHANNELS\[0\]\.apiKey must be a string/,
    ],
    [
      { UPSTREAM_CHANNELS: '[{"id": "a", "family": "ax", "baseUrl": "https://a", "apiKey": "k", "apikey": "k"}]' },
      /UPSTREAM_CHANNELS\[0\]\.apikey is not a channel field/,
    ],
    [
      {
        UPSTREAM_CHANNELS: '[{"id": "a", "family": "ax", "baseUrl": "https://a", "apiKey": "k", "modelMap": {"m": 1}}]',
      },
      /UPSTREAM_CHANNELS\[0\]\.modelMap\.m must be a non-empty string/,
    ],
    [
      {
        UPSTREAM_CHANNELS:
          '[{"id": "a", "family": "vd", "baseUrl": "https://a", "accessKey": "ak", "secretKey": "sk"}]',
      },
      /only used by family kl/,
    ],
    [
      {
        UPSTREAM_AX_BASE_URL: 'https://a',
        UPSTREAM_AX_API_KEY: 'k',
        UPSTREAM_CHANNELS: '[{"id": "ax-default", "family": "ax", "baseUrl": "https://b", "apiKey": "k"}]',
      },
      /"ax-default" is used twice/,
    ],
  ])('rejects %j', (env, message) => {
    expect(() => loadChannels(env)).toThrow(ChannelConfigError);
    expect(() => loadChannels(env)).toThrow(message);
  });

  it('never puts a secret into the error message', () => {
    const env = {
      UPSTREAM_CHANNELS: '[{"id": "a", "family": "ax", "baseUrl": "https://a", "apiKey": "super-secret-key", oops}]',
    };
    expect(() => loadChannels(env)).toThrow(ChannelConfigError);
    try {
      loadChannels(env);
    } catch (error) {
      expect((error as Error).message).not.toContain('super-secret-key');
    }
  });
});

describe('loadChannels with an extended vendor list', () => {
  const extra = {
    id: 'zz',
    client: class {},
    pathPrefix: '/zz/v3',
    env: vendorEnvNames('zz'),
  } as unknown as UpstreamVendor;
  const vendors = [...UPSTREAM_VENDORS, extra];

  it('reads the new vendor’s variables, its model map override and its JSON channels', () => {
    const channels = loadChannels(
      {
        UPSTREAM_ZZ_BASE_URL: 'https://zz.example/',
        UPSTREAM_ZZ_API_KEY: 'k',
        UPSTREAM_ZZ_MODEL_MAP: '{"zz-1":"zz-one"}',
        UPSTREAM_CHANNELS: JSON.stringify([{ id: 'zz-2', family: 'zz', baseUrl: 'https://b.example', apiKey: 'k2' }]),
      },
      vendors,
    );
    expect(channels).toEqual([
      { id: 'zz-default', family: 'zz', baseUrl: 'https://zz.example', apiKey: 'k', modelMap: { 'zz-1': 'zz-one' } },
      { id: 'zz-2', family: 'zz', baseUrl: 'https://b.example', apiKey: 'k2', modelMap: { 'zz-1': 'zz-one' } },
    ]);
  });

  it('refuses a base URL ending in the new vendor’s own path prefix, and the family outside the list', () => {
    expect(() =>
      loadChannels({ UPSTREAM_ZZ_BASE_URL: 'https://zz.example/zz/v3', UPSTREAM_ZZ_API_KEY: 'k' }, vendors),
    ).toThrow(/UPSTREAM_ZZ_BASE_URL must not end in \/zz\/v3: the zz client adds \/zz\/v3 itself/);
    const json = JSON.stringify([{ id: 'x', family: 'zz', baseUrl: 'https://b.example', apiKey: 'k' }]);
    expect(() => loadChannels({ UPSTREAM_CHANNELS: json })).toThrow(/family must be one of kl, ax, vd\./);
  });
});
