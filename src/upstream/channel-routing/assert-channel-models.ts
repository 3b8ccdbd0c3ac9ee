import type { UpstreamChannel } from '../upstream.types';
import type { PublicModel } from './assert-model-maps';
import { ChannelConfigError } from './channel-config-error';

/**
 * Start-up check of the channels' `models`: each name is a public model of the channel's family, and
 * every public model of a family that has channels is served by at least one of them (else its
 * requests would all fail). Throws one `ChannelConfigError` naming the channels and models.
 */
export function assertChannelModels(channels: readonly UpstreamChannel[], models: readonly PublicModel[]): void {
  // No catalogue given (tools that start without one): nothing to check against.
  if (models.length === 0) return;
  const problems = channels.flatMap((channel) => {
    const unknown = (channel.models ?? []).filter(
      (name) => !models.some((m) => m.name === name && m.family === channel.family),
    );
    return unknown.length === 0
      ? []
      : [`channel ${channel.id}: models names ${unknown.join(', ')}, not a model of family ${channel.family}`];
  });
  const families = new Set(channels.map((channel) => channel.family));
  const unserved = models.filter(
    (m) =>
      families.has(m.family) &&
      !channels.some((c) => c.family === m.family && (c.models === undefined || c.models.includes(m.name))),
  );
  if (unserved.length > 0)
    problems.push(`no channel's models lists ${unserved.map((m) => m.name).join(', ')} (every model needs one)`);
  if (problems.length > 0) throw new ChannelConfigError(`Upstream channel models are invalid: ${problems.join('; ')}.`);
}
