import type { UpstreamChannel } from '../upstream.types';
import { assertModelMapsCover } from './assert-model-maps';
import { ChannelConfigError } from './channel-config-error';
import { loadChannels } from './load-channels';

const CATALOGUE = [
  ...['kl-v1', 'kl-v1-6'].map((name) => ({ name, family: 'kl' })),
  ...['wx2.7-r2v', 'wx2.7-r2v-2026-06-12', 'wx2.6-r2v', 'wx2.6-r2v-flash'].map((name) => ({ name, family: 'ax' })),
  ...['vdq3-mix', 'vdq3-turbo', 'vdq3', 'vdq2-pro', 'vdq2', 'vdq1', 'vd2.0'].map((name) => ({ name, family: 'vd' })),
];
const KL_V1 = [{ name: 'kl-v1', family: 'kl' }];
const channel = (
  id: string,
  family: UpstreamChannel['family'],
  modelMap?: Record<string, string>,
  simulated?: boolean,
): UpstreamChannel => ({
  id,
  family,
  baseUrl: 'https://x.example',
  apiKey: 'k',
  ...(modelMap ? { modelMap } : {}),
  ...(simulated ? { simulated } : {}),
});

describe('assertModelMapsCover', () => {
  it('passes for real channels built with the shipped default map', () => {
    const channels = loadChannels({
      UPSTREAM_KL_BASE_URL: 'https://kl.example',
      UPSTREAM_KL_API_KEY: 'k',
      UPSTREAM_AX_BASE_URL: 'https://ax.example',
      UPSTREAM_AX_API_KEY: 'k',
      UPSTREAM_VD_BASE_URL: 'https://vd.example',
      UPSTREAM_VD_API_KEY: 'k',
    });
    expect(() => assertModelMapsCover(channels, CATALOGUE)).not.toThrow();
  });

  it('stops the start naming the channel and every model of its family it cannot name upstream', () => {
    const channels = [
      channel('vd-main', 'vd', { vdq3: 'viduq3' }),
      channel('ax-main', 'ax', { 'wx2.7-r2v': 'wan2.7-r2v' }),
    ];
    expect(() => assertModelMapsCover(channels, CATALOGUE)).toThrow(ChannelConfigError);
    expect(() => assertModelMapsCover(channels, CATALOGUE)).toThrow(
      /channel vd-main has no upstream name for vdq3-mix, vdq3-turbo, vdq2-pro, vdq2, vdq1, vd2\.0; channel ax-main has no upstream name for wx2\.7-r2v-2026-06-12, wx2\.6-r2v, wx2\.6-r2v-flash\./,
    );
  });

  it('treats a channel without a map as naming nothing, and ignores inherited keys', () => {
    expect(() => assertModelMapsCover([channel('kl-main', 'kl')], KL_V1)).toThrow(
      /kl-main has no upstream name for kl-v1/,
    );
    const inherited = Object.create({ 'kl-v1': 'kling-v1' }) as Record<string, string>;
    expect(() => assertModelMapsCover([channel('kl-main', 'kl', inherited)], KL_V1)).toThrow(
      /kl-main has no upstream name for kl-v1/,
    );
  });

  it('asks a channel limited to some models for their names only', () => {
    const limited: UpstreamChannel = { ...channel('vd-q3', 'vd', { vdq3: 'viduq3' }), models: ['vdq3'] };
    expect(() => assertModelMapsCover([limited], CATALOGUE)).not.toThrow();
    expect(() => assertModelMapsCover([{ ...limited, models: ['vdq3', 'vdq1'] }], CATALOGUE)).toThrow(
      /channel vd-q3 has no upstream name for vdq1\./,
    );
  });

  it('skips simulated channels: the simulator accepts the public names', () => {
    expect(() => assertModelMapsCover([channel('kl-default', 'kl', {}, true)], CATALOGUE)).not.toThrow();
  });
});
