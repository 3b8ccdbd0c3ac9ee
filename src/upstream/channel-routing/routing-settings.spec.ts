import { ChannelConfigError, loadChannels } from './load-channels';

const AX = { UPSTREAM_AX_BASE_URL: 'https://ax.example', UPSTREAM_AX_API_KEY: 'k' };
const extra = (fields: Record<string, unknown>) =>
  JSON.stringify([{ id: 'ax-b', family: 'ax', baseUrl: 'https://ax2.example', apiKey: 'k2', ...fields }]);

describe('channel routing settings', () => {
  it('reads weight, priority, models and maxInFlight from UPSTREAM_CHANNELS and UPSTREAM_<F>_*', () => {
    const [def, b] = loadChannels({
      ...AX,
      UPSTREAM_AX_WEIGHT: '4',
      UPSTREAM_AX_PRIORITY: '2',
      UPSTREAM_AX_MODELS: 'wx2.7-r2v, wx2.6-r2v',
      UPSTREAM_AX_MAX_IN_FLIGHT: '10',
      UPSTREAM_CHANNELS: extra({ weight: 0, priority: -1, models: ['wx2.7-r2v'], maxInFlight: 3 }),
    });
    expect(def).toMatchObject({ weight: 4, priority: 2, models: ['wx2.7-r2v', 'wx2.6-r2v'], maxInFlight: 10 });
    expect(b).toMatchObject({ weight: 0, priority: -1, models: ['wx2.7-r2v'], maxInFlight: 3 });
  });

  it('leaves them out when unset (weight 1, priority 0, every model, no limit)', () => {
    const [def] = loadChannels(AX);
    expect(def).not.toHaveProperty('weight');
    expect(def).not.toHaveProperty('priority');
    expect(def).not.toHaveProperty('models');
    expect(def).not.toHaveProperty('maxInFlight');
  });

  it.each([
    [{ weight: -1 }, /UPSTREAM_CHANNELS\[0\]\.weight \(channel ax-b\) must be an integer from 0/],
    [{ weight: 1.5 }, /\.weight \(channel ax-b\)/],
    [{ priority: 'high' }, /UPSTREAM_CHANNELS\[0\]\.priority \(channel ax-b\) must be an integer/],
    [{ models: 'wx2.7-r2v' }, /UPSTREAM_CHANNELS\[0\]\.models \(channel ax-b\) must be an array/],
    [{ models: [] }, /\.models \(channel ax-b\) must list at least one/],
    [{ models: ['ok', 3] }, /\.models \(channel ax-b\)/],
    [{ maxInFlight: 0 }, /UPSTREAM_CHANNELS\[0\]\.maxInFlight \(channel ax-b\) must be an integer from 1/],
  ])('refuses %j naming the channel and the field', (fields, message) => {
    expect(() => loadChannels({ UPSTREAM_CHANNELS: extra(fields) })).toThrow(ChannelConfigError);
    expect(() => loadChannels({ UPSTREAM_CHANNELS: extra(fields) })).toThrow(message);
  });

  it.each([
    ['UPSTREAM_AX_WEIGHT', 'heavy', /UPSTREAM_AX_WEIGHT \(channel ax-default\) must be an integer/],
    ['UPSTREAM_AX_PRIORITY', '1.5', /UPSTREAM_AX_PRIORITY \(channel ax-default\) must be an integer/],
    ['UPSTREAM_AX_MAX_IN_FLIGHT', '0', /UPSTREAM_AX_MAX_IN_FLIGHT \(channel ax-default\) must be an integer from 1/],
    ['UPSTREAM_AX_MODELS', 'a,,b', /UPSTREAM_AX_MODELS \(channel ax-default\)/],
  ])('refuses %s=%s naming the variable and the channel', (name, value, message) => {
    expect(() => loadChannels({ ...AX, [name]: value })).toThrow(message);
  });
});
