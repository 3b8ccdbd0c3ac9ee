import type { UpstreamChannel } from '../upstream.types';
import { ChannelConfigError } from './channel-config-error';

/** A public model and the family (upstream protocol) that serves it, as the gateway's catalogue lists them. */
export interface PublicModel {
  readonly name: string;
  readonly family: string;
}

/**
 * Start-up check: every real (non-simulated) channel maps every public model it serves (its `models`,
 * else every model of its family) to an upstream name, so a missing name stops the start instead of
 * failing a customer's first request.
 * Throws one `ChannelConfigError` listing every gap.
 */
export function assertModelMapsCover(channels: readonly UpstreamChannel[], models: readonly PublicModel[]): void {
  const gaps = channels
    .filter((channel) => !channel.simulated)
    .flatMap((channel) => {
      const missing = models
        .filter((m) => m.family === channel.family && servesModel(channel, m.name) && !hasOwn(channel.modelMap, m.name))
        .map((m) => m.name);
      return missing.length === 0 ? [] : [`channel ${channel.id} has no upstream name for ${missing.join(', ')}`];
    });
  if (gaps.length > 0) {
    throw new ChannelConfigError(
      `Upstream model maps are incomplete: ${gaps.join('; ')}. Add them to config/upstream-models.json, UPSTREAM_<FAMILY>_MODEL_MAP or the channel's modelMap.`,
    );
  }
}

function hasOwn(map: Readonly<Record<string, string>> | undefined, name: string): boolean {
  return map !== undefined && Object.prototype.hasOwnProperty.call(map, name);
}

function servesModel(channel: UpstreamChannel, name: string): boolean {
  return channel.models === undefined || channel.models.includes(name);
}
