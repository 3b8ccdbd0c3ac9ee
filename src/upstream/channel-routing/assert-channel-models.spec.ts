import type { UpstreamChannel } from '../upstream.types';
import { assertChannelModels } from './assert-channel-models';

const CATALOGUE = [
  { name: 'wx2.7-r2v', family: 'ax' },
  { name: 'wx2.6-r2v', family: 'ax' },
  { name: 'vdq3', family: 'vd' },
];
const channel = (id: string, family: string, models?: string[]): UpstreamChannel => ({
  id,
  family,
  baseUrl: 'https://x.example',
  apiKey: 'k',
  ...(models ? { models } : {}),
});

describe('assertChannelModels', () => {
  it('passes when every listed name is a model of the channel’s family and every model has a channel', () => {
    expect(() =>
      assertChannelModels([channel('a', 'ax', ['wx2.7-r2v']), channel('b', 'ax', ['wx2.6-r2v'])], CATALOGUE),
    ).not.toThrow();
    expect(() => assertChannelModels([channel('a', 'ax')], CATALOGUE)).not.toThrow();
  });

  it('refuses a name that is not a model of the channel’s family, naming the channel', () => {
    expect(() => assertChannelModels([channel('ax-b', 'ax', ['vdq3']), channel('ax-c', 'ax')], CATALOGUE)).toThrow(
      /channel ax-b: models names vdq3, not a model of family ax/,
    );
  });

  it('refuses a model no channel of its family serves', () => {
    expect(() => assertChannelModels([channel('a', 'ax', ['wx2.7-r2v'])], CATALOGUE)).toThrow(
      /no channel's models lists wx2.6-r2v/,
    );
  });
});
