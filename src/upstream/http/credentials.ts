import { UpstreamChannel, UpstreamUnavailableError } from '../upstream.types';

/** The channel's API key; a channel without one is a configuration fault, reported without any secret. */
export function requireApiKey(channel: UpstreamChannel): string {
  if (!channel.apiKey) throw new UpstreamUnavailableError(`Upstream channel ${channel.id} has no API key configured.`);
  return channel.apiKey;
}
