import { Inject, Injectable } from '@nestjs/common';
import { UpstreamBreakers } from '../http/upstream-breakers';
import { UpstreamChannel, UpstreamUnavailableError } from '../upstream.types';
import { UPSTREAM_CHANNELS } from './upstream-channels.token';

/** The configured channels: which one takes a new task, and which one a stored task belongs to. */
@Injectable()
export class ChannelRegistry {
  private readonly byFamily = new Map<string, UpstreamChannel[]>();
  private readonly byChannelId = new Map<string, UpstreamChannel>();
  private readonly cursors = new Map<string, number>();

  constructor(
    @Inject(UPSTREAM_CHANNELS) channels: readonly UpstreamChannel[],
    private readonly breakers: UpstreamBreakers,
  ) {
    for (const channel of channels) {
      if (this.byChannelId.has(channel.id)) throw new Error(`Upstream channel id "${channel.id}" is configured twice.`);
      this.byChannelId.set(channel.id, channel);
      this.byFamily.set(channel.family, [...(this.byFamily.get(channel.family) ?? []), channel]);
    }
  }

  all(): readonly UpstreamChannel[] {
    return [...this.byChannelId.values()];
  }

  /**
   * Round-robin over the family's channels whose breaker accepts calls; when every breaker is open,
   * over all of them (the call then fails fast with `UpstreamUnavailableError`). Throws
   * `UpstreamUnavailableError` when the family has no channel at all.
   */
  forFamily(family: string): UpstreamChannel {
    const channels = this.byFamily.get(family) ?? [];
    if (channels.length === 0)
      throw new UpstreamUnavailableError(`No upstream channel is configured for family ${family}.`);
    const healthy = channels.filter((channel) => this.breakers.isAcceptingCalls(channel.id));
    const candidates = healthy.length > 0 ? healthy : channels;
    const cursor = this.cursors.get(family) ?? 0;
    this.cursors.set(family, cursor + 1);
    return candidates[cursor % candidates.length];
  }

  /** The channel a stored task was created on; undefined when it is no longer configured. */
  byId(id: string): UpstreamChannel | undefined {
    return this.byChannelId.get(id);
  }
}
