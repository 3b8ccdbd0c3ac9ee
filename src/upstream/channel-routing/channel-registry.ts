import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { BreakerState, UpstreamBreakers } from '../http/upstream-breakers';
import { UpstreamChannel, UpstreamCredentialsRefusedError, UpstreamUnavailableError } from '../upstream.types';
import type { UpstreamVendor } from '../vendor';
import { UPSTREAM_VENDORS } from '../vendors';
import { ChannelLoad } from './channel-load';
import { ChannelFigures, ChannelStats } from './channel-stats';
import { CreateRefusal, classifyCreateFailure } from './create-refusal';
import { DEFAULT_PRIORITY, DEFAULT_WEIGHT } from './routing-settings';
import { SmoothWeightedRoundRobin } from './smooth-weighted-round-robin';
import { UPSTREAM_CHANNELS } from './upstream-channels.token';

/** Injection token of the vendor list the registry reads out-of-balance codes from (default: `UPSTREAM_VENDORS`). */
export const UPSTREAM_VENDOR_LIST = Symbol('UPSTREAM_VENDOR_LIST');

/** How long a channel whose account ran out of balance takes no new task. */
export const BALANCE_COOL_DOWN_MS = 5 * 60_000;
/** How long a channel whose credentials the upstream refused takes no new task; then one create tries it again. */
export const CREDENTIALS_COOL_DOWN_MS = 60_000;

/** What an operator may change at run time; absent fields keep the configured value. */
export interface ChannelOverride {
  readonly enabled?: boolean;
  readonly weight?: number;
  readonly priority?: number;
}

/** One channel as the operator view shows it (never its credentials). */
export interface ChannelState {
  readonly id: string;
  readonly family: string;
  readonly enabled: boolean;
  readonly weight: number;
  readonly priority: number;
  /** null: every model of its family. */
  readonly models: readonly string[] | null;
  readonly maxInFlight: number | null;
  readonly inFlight: number;
  readonly breaker: BreakerState;
  /** Out of balance: no new task until then (ms since the epoch); null when not cooling down. */
  readonly coolingDownUntil: number | null;
  readonly figures: ChannelFigures;
  /** Why the channel cannot serve as it should now, and since when; null when healthy. */
  readonly unhealthy: { readonly reason: string; readonly since: number } | null;
}

/** The upstream refused a channel's credentials: since when, until when it takes no new task, what it said. */
interface CredentialsRefusal {
  readonly since: number;
  readonly until: number;
  readonly reason: string;
}

/**
 * The configured channels: which one takes a new task, and which one a stored task belongs to.
 * A new task goes to an enabled channel serving its model, in the highest priority tier that has
 * one available (breaker letting calls through, not cooling down, under `maxInFlight`, weight > 0),
 * by smooth weighted round-robin within the tier. Stored tasks and sessions keep their channel
 * (`byId`), whatever its state.
 */
@Injectable()
export class ChannelRegistry {
  private readonly logger = new Logger('ChannelRegistry');
  private readonly byFamily = new Map<string, UpstreamChannel[]>();
  private readonly byChannelId = new Map<string, UpstreamChannel>();
  private readonly vendors: readonly UpstreamVendor[];
  private overrides = new Map<string, ChannelOverride>();
  private readonly coolingDown = new Map<string, number>();
  private readonly credentialsRefused = new Map<string, CredentialsRefusal>();
  private readonly rotation = new SmoothWeightedRoundRobin();
  readonly load = new ChannelLoad();
  readonly stats = new ChannelStats();

  constructor(
    @Inject(UPSTREAM_CHANNELS) channels: readonly UpstreamChannel[],
    private readonly breakers: UpstreamBreakers,
    @Optional() @Inject(UPSTREAM_VENDOR_LIST) vendors?: readonly UpstreamVendor[],
  ) {
    this.vendors = vendors ?? UPSTREAM_VENDORS;
    for (const channel of channels) {
      if (this.byChannelId.has(channel.id)) throw new Error(`Upstream channel id "${channel.id}" is configured twice.`);
      this.byChannelId.set(channel.id, channel);
      this.byFamily.set(channel.family, [...(this.byFamily.get(channel.family) ?? []), channel]);
    }
  }

  all(): readonly UpstreamChannel[] {
    return [...this.byChannelId.values()];
  }

  /** The channel a stored task was created on; undefined when it is no longer configured. */
  byId(id: string): UpstreamChannel | undefined {
    return this.byChannelId.get(id);
  }

  hasFamily(family: string): boolean {
    return (this.byFamily.get(family)?.length ?? 0) > 0;
  }

  /**
   * The channel for a new task of `model` (any model when absent), never one of `exclude` (those a
   * request already tried). When no channel is available only because breakers are open, one of
   * them anyway (the call then fails fast with `UpstreamUnavailableError`). Undefined when the
   * family has no enabled channel for the model, or every one is excluded, cooling down or full.
   */
  pick(
    family: string,
    model?: string,
    exclude: readonly string[] = [],
    nowMs = Date.now(),
  ): UpstreamChannel | undefined {
    const channels = this.byFamily.get(family) ?? [];
    const eligible = channels.filter(
      (c) =>
        this.weightOf(c) > 0 &&
        this.isEnabled(c.id) &&
        (model === undefined || c.models === undefined || c.models.includes(model)) &&
        !exclude.includes(c.id) &&
        (this.coolingDown.get(c.id) ?? 0) <= nowMs &&
        (this.credentialsRefused.get(c.id)?.until ?? 0) <= nowMs &&
        (c.maxInFlight === undefined || this.load.inFlight(c.id) < c.maxInFlight),
    );
    const healthy = eligible.filter((c) => this.breakers.isAcceptingCalls(c.id, nowMs));
    const pool = healthy.length > 0 ? healthy : eligible;
    if (pool.length === 0) return undefined;
    // The highest tier first; an operator may change a channel's tier at run time.
    const tier = Math.max(...pool.map((c) => this.priorityOf(c)));
    const candidates = pool.filter((c) => this.priorityOf(c) === tier);
    return this.rotation.next(`${family}\u0000${model ?? ''}\u0000${tier}`, candidates, (c) => this.weightOf(c));
  }

  /**
   * Any channel of the family for a call outside the task engine (sessions, voices): as `pick`, but
   * throws `UpstreamUnavailableError` when there is none.
   */
  forFamily(family: string): UpstreamChannel {
    const channel = this.pick(family);
    if (channel) return channel;
    throw new UpstreamUnavailableError(
      this.hasFamily(family)
        ? `No upstream channel of family ${family} is available (disabled, cooling down or full).`
        : `No upstream channel is configured for family ${family}.`,
    );
  }

  /**
   * Records one create call on its channel (its figures) and says whether the task may go to
   * another channel. A channel whose account is out of balance takes no new task for
   * `BALANCE_COOL_DOWN_MS`; its breaker and every other channel are left alone.
   */
  createEnded(
    channel: UpstreamChannel,
    latencyMs: number,
    error?: unknown,
    nowMs = Date.now(),
  ): CreateRefusal | 'accepted' {
    if (error === undefined) {
      this.stats.record(channel.id, latencyMs, undefined, nowMs);
      this.credentialsWork(channel);
      return 'accepted';
    }
    this.stats.record(channel.id, latencyMs, error instanceof Error ? error.message : String(error), nowMs);
    const verdict = classifyCreateFailure(
      error,
      this.vendors.find((v) => v.id === channel.family),
    );
    if (verdict === 'out-of-balance') {
      this.coolingDown.set(channel.id, nowMs + BALANCE_COOL_DOWN_MS);
      this.logger.warn(
        { channel: channel.id, coolDownMs: BALANCE_COOL_DOWN_MS },
        'upstream channel account is out of balance: it takes no new task for the cool-down',
      );
    }
    if (verdict === 'credentials-refused')
      this.refuseCredentials(channel, error as UpstreamCredentialsRefusedError, nowMs);
    return verdict;
  }

  /**
   * Records how a call other than a create (a task query) ended on its channel: a refused credential
   * makes the channel unhealthy as a create's does; an answer shows its credentials work again.
   */
  callEnded(channel: UpstreamChannel, error?: unknown, nowMs = Date.now()): void {
    if (error === undefined) this.credentialsWork(channel);
    else if (error instanceof UpstreamCredentialsRefusedError) this.refuseCredentials(channel, error, nowMs);
  }

  /**
   * The channel takes no new task for `CREDENTIALS_COOL_DOWN_MS`, and is shown unhealthy until a call
   * on it works. One ERROR line when it turns so, and again for each refusal once its cool-down is
   * over (a create that tried it again), not for every query refused meanwhile.
   */
  private refuseCredentials(channel: UpstreamChannel, error: UpstreamCredentialsRefusedError, nowMs: number): void {
    const previous = this.credentialsRefused.get(channel.id);
    const coolingDown = previous !== undefined && previous.until > nowMs;
    this.credentialsRefused.set(channel.id, {
      since: previous?.since ?? nowMs,
      until: coolingDown ? previous.until : nowMs + CREDENTIALS_COOL_DOWN_MS,
      reason: error.message,
    });
    if (coolingDown) return;
    this.logger.error(
      {
        channel: channel.id,
        family: channel.family,
        status: error.httpStatus ?? null,
        code: error.nativeCode,
        message: error.message,
        coolDownMs: CREDENTIALS_COOL_DOWN_MS,
      },
      `upstream channel ${channel.id}: the upstream refuses its credentials; it takes no new task for the cool-down (check its key)`,
    );
  }

  private credentialsWork(channel: UpstreamChannel): void {
    if (!this.credentialsRefused.delete(channel.id)) return;
    this.logger.log(
      { channel: channel.id },
      `upstream channel ${channel.id}: the upstream accepts its credentials again`,
    );
  }

  /** Replaces the operator's run-time changes (all of them, as stored). */
  applyOverrides(overrides: ReadonlyMap<string, ChannelOverride>): void {
    this.overrides = new Map(overrides);
  }

  isEnabled(id: string): boolean {
    return this.overrides.get(id)?.enabled ?? true;
  }

  weightOf(channel: UpstreamChannel): number {
    return this.overrides.get(channel.id)?.weight ?? channel.weight ?? DEFAULT_WEIGHT;
  }

  priorityOf(channel: UpstreamChannel): number {
    return this.overrides.get(channel.id)?.priority ?? channel.priority ?? DEFAULT_PRIORITY;
  }

  stateOf(channel: UpstreamChannel, nowMs = Date.now()): ChannelState {
    const until = this.coolingDown.get(channel.id);
    const breaker = this.breakers.stateOf(channel.id);
    const coolingDownUntil = until !== undefined && until > nowMs ? until : null;
    const figures = this.stats.figures(channel.id, nowMs);
    return {
      id: channel.id,
      family: channel.family,
      enabled: this.isEnabled(channel.id),
      weight: this.weightOf(channel),
      priority: this.priorityOf(channel),
      models: channel.models ?? null,
      maxInFlight: channel.maxInFlight ?? null,
      inFlight: this.load.inFlight(channel.id),
      breaker,
      coolingDownUntil,
      figures,
      unhealthy: this.unhealthy(channel, breaker, coolingDownUntil, figures),
    };
  }

  /** The first that holds: credentials refused, breaker open, account out of balance. */
  private unhealthy(
    channel: UpstreamChannel,
    breaker: BreakerState,
    coolingDownUntil: number | null,
    figures: ChannelFigures,
  ): ChannelState['unhealthy'] {
    const refused = this.credentialsRefused.get(channel.id);
    if (refused) return { reason: refused.reason, since: refused.since };
    if (breaker !== 'closed')
      return {
        reason: `Paused after repeated failures (circuit ${breaker})${figures.lastError ? `: ${figures.lastError.message}` : '.'}`,
        since: this.breakers.openedAt(channel.id) ?? figures.lastError?.at ?? 0,
      };
    if (coolingDownUntil !== null)
      return {
        reason: 'Its upstream account is out of balance: it takes no new task until its cool-down ends.',
        since: coolingDownUntil - BALANCE_COOL_DOWN_MS,
      };
    return null;
  }
}
