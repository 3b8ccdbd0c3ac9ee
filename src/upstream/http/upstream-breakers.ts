import { Inject, Injectable } from '@nestjs/common';
import { CircuitBreakerPolicy, CircuitState, ConsecutiveBreaker, circuitBreaker, handleType } from 'cockatiel';
import { UpstreamFault } from './upstream-fault';
import { UPSTREAM_HTTP_OPTIONS, UpstreamHttpOptions } from './upstream-http-options';

export type BreakerState = 'closed' | 'open' | 'half-open';

interface ChannelBreaker {
  readonly policy: CircuitBreakerPolicy;
  openedAtMs?: number;
}

/**
 * One circuit breaker per channel. Only `UpstreamFault`s (5xx, connection errors, timeouts) count:
 * a 4xx is the upstream working correctly on a bad request, so it must never pause a channel.
 */
@Injectable()
export class UpstreamBreakers {
  private readonly byChannel = new Map<string, ChannelBreaker>();

  constructor(@Inject(UPSTREAM_HTTP_OPTIONS) private readonly options: UpstreamHttpOptions) {}

  policyFor(channelId: string): CircuitBreakerPolicy {
    return this.entry(channelId).policy;
  }

  stateOf(channelId: string): BreakerState {
    const state = this.byChannel.get(channelId)?.policy.state ?? CircuitState.Closed;
    if (state === CircuitState.HalfOpen) return 'half-open';
    return state === CircuitState.Closed ? 'closed' : 'open';
  }

  /** When the breaker last opened (ms since the epoch); undefined when it never did. */
  openedAt(channelId: string): number | undefined {
    return this.byChannel.get(channelId)?.openedAtMs;
  }

  /** False while the breaker would fail fast; true again once a probe call would be let through. */
  isAcceptingCalls(channelId: string, nowMs = Date.now()): boolean {
    const entry = this.byChannel.get(channelId);
    if (!entry || entry.policy.state === CircuitState.Closed || entry.policy.state === CircuitState.HalfOpen)
      return true;
    if (entry.policy.state === CircuitState.Isolated) return false;
    return nowMs - (entry.openedAtMs ?? 0) >= this.options.breakerHalfOpenAfterMs;
  }

  private entry(channelId: string): ChannelBreaker {
    let entry = this.byChannel.get(channelId);
    if (!entry) {
      const policy = circuitBreaker(handleType(UpstreamFault), {
        halfOpenAfter: this.options.breakerHalfOpenAfterMs,
        breaker: new ConsecutiveBreaker(this.options.breakerConsecutiveFailures),
      });
      const created: ChannelBreaker = { policy };
      // cockatiel keeps the opening time private; the registry needs it to know when a probe is due.
      policy.onBreak(() => (created.openedAtMs = Date.now()));
      entry = created;
      this.byChannel.set(channelId, entry);
    }
    return entry;
  }
}
