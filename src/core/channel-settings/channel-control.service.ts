import { Injectable, Logger, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import type Redis from 'ioredis';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { RedisConnection } from '../../platform/redis/redis.provider';
import { Clock } from '../../platform/time/clock';
import { WorkerLoop } from '../../platform/workers/worker-loop';
import { AuditTrail } from '../audit/audit.service';
import { ChangeOrigin } from '../audit/audit.types';
import { ChannelOverride, ChannelRegistry, ChannelState } from '../../upstream/channel-routing/channel-registry';
import { ChannelCredentialCheck, CredentialCheckResult } from '../../upstream/channel-routing/channel-credential-check';
import { ChannelSettingEntity } from './channel-setting.entity';
import { ChannelSettingsRepository } from './channel-settings.repository';

/** Redis channel on which an instance announces a channel change: every instance reloads the settings. */
export const CHANNEL_SETTINGS_CHANGED = 'gw:channels:changed';
/** Without Redis, how often each instance reads the settings table; with it, a slow safety net. */
const RELOAD_MS = 1000;
const RELOAD_WITH_REDIS_MS = 30_000;
/** How often the open tasks per channel are counted again, when some channel has a `maxInFlight`. */
const RECOUNT_MS = 1000;

export interface ChannelPatch {
  enabled?: boolean;
  weight?: number;
  priority?: number;
}

/**
 * Run-time control of the upstream channels: an operator's change (enabled, weight, priority) is stored in
 * `channel_settings` and applied by every instance: at once on this one, through a Redis message on
 * the others when REDIS_URL is set, else by their reading the table every second. Also keeps the
 * registry's in-flight figures in step with the tasks table (every instance's open tasks).
 */
@Injectable()
export class ChannelControl implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ChannelControl');
  private subscriber: Redis | null = null;
  private readonly loops: WorkerLoop[] = [];

  constructor(
    private readonly settings: ChannelSettingsRepository,
    private readonly registry: ChannelRegistry,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
    private readonly credentials: ChannelCredentialCheck,
    @Optional() private readonly redis?: RedisConnection,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.reload();
    await this.recount();
    const client = this.redis?.client;
    if (client) {
      this.subscriber = client.duplicate();
      this.subscriber.on('message', () => void this.reload().catch((error: unknown) => this.warn(error, 'reload')));
      this.subscriber.on('error', (err: Error) =>
        this.logger.warn({ err: err.message }, 'channel change channel error'),
      );
      await this.subscriber.subscribe(CHANNEL_SETTINGS_CHANGED);
    }
    this.startLoop('channel settings reload', () => this.reload(), client ? RELOAD_WITH_REDIS_MS : RELOAD_MS);
    if (this.registry.all().some((channel) => channel.maxInFlight !== undefined))
      this.startLoop('channel in-flight count', () => this.recount(), RECOUNT_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop()));
    await this.subscriber?.quit().catch(() => undefined);
  }

  /** Every channel as it stands, with a fresh in-flight count. */
  async list(): Promise<ChannelState[]> {
    await this.recount();
    return this.registry.all().map((channel) => this.registry.stateOf(channel));
  }

  /** Undefined when no channel has that id. The change and its audit entry are one transaction. */
  async update(id: string, patch: ChannelPatch, origin: ChangeOrigin): Promise<ChannelState | undefined> {
    const channel = this.registry.byId(id);
    if (!channel) return undefined;
    const row = await this.transactions.run(async (tx) => {
      const stored = await this.settings.findById(id, tx);
      const changed = Object.assign(new ChannelSettingEntity(), {
        channelId: id,
        enabled: patch.enabled ?? stored?.enabled ?? null,
        weight: patch.weight ?? stored?.weight ?? null,
        priority: patch.priority ?? stored?.priority ?? null,
        updatedAt: this.clock.nowMs(),
      });
      await this.settings.save(changed, tx);
      const before = this.registry.stateOf(channel);
      await this.audit.record(tx, origin, {
        action: 'channel.update',
        target: { type: 'channel', id },
        before: { enabled: before.enabled, weight: before.weight, priority: before.priority },
        after: {
          enabled: changed.enabled ?? before.enabled,
          weight: changed.weight ?? before.weight,
          priority: changed.priority ?? before.priority,
        },
      });
      return changed;
    });
    await this.reload();
    await this.announce(id);
    this.logger.log(
      { channel: id, enabled: row.enabled, weight: row.weight, priority: row.priority },
      'upstream channel changed',
    );
    return (await this.list()).find((state) => state.id === id);
  }

  /** Undefined when no channel has that id; else what the upstream said to a query made with its credential. */
  async checkCredential(id: string): Promise<CredentialCheckResult | undefined> {
    const channel = this.registry.byId(id);
    return channel ? this.credentials.check(channel) : undefined;
  }

  private async reload(): Promise<void> {
    const rows = await this.settings.all();
    const overrides = new Map<string, ChannelOverride>();
    for (const row of rows)
      overrides.set(row.channelId, {
        ...(row.enabled === null ? {} : { enabled: row.enabled }),
        ...(row.weight === null ? {} : { weight: row.weight }),
        ...(row.priority === null ? {} : { priority: row.priority }),
      });
    this.registry.applyOverrides(overrides);
  }

  private async recount(): Promise<void> {
    const apply = this.registry.load.beginCount();
    apply(await this.settings.openTasksByChannel());
  }

  /** A Redis failure is logged, not thrown: the change is stored, and the others read it within 30 s. */
  private async announce(id: string): Promise<void> {
    try {
      await this.redis?.client?.publish(CHANNEL_SETTINGS_CHANGED, id);
    } catch (error) {
      this.warn(error, 'announce');
    }
  }

  private startLoop(name: string, cycle: () => Promise<void>, everyMs: number): void {
    const loop = new WorkerLoop(name, this.logger, cycle, () => everyMs);
    loop.start(everyMs);
    this.loops.push(loop);
  }

  private warn(error: unknown, what: string): void {
    this.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      `channel settings ${what} failed`,
    );
  }
}
