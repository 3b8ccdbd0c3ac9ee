import { channelSettingFactory } from '../../../test/factories';
import {
  FakeRedis,
  FakeTransactionRunner,
  InMemoryChannelSettings,
  OWNER_ORIGIN,
  inMemoryAuditTrail,
} from '../../../test/fakes';
import { ManualClock } from '../../platform/time/clock';
import { ChannelRegistry } from '../../upstream/channel-routing/channel-registry';
import { UpstreamBreakers } from '../../upstream/http/upstream-breakers';
import { resolveHttpOptions } from '../../upstream/http/upstream-http-options';
import { UpstreamChannel } from '../../upstream/upstream.types';
import { CHANNEL_SETTINGS_CHANGED, ChannelControl } from './channel-control.service';
import type { ChannelCredentialCheck } from '../../upstream/channel-routing/channel-credential-check';

const channel = (id: string, extra: Partial<UpstreamChannel> = {}): UpstreamChannel => ({
  id,
  family: 'ax',
  baseUrl: `http://${id}.test`,
  apiKey: 'k',
  weight: 2,
  ...extra,
});

function setup(options: { redis?: FakeRedis; stored?: InMemoryChannelSettings; channels?: UpstreamChannel[] } = {}) {
  const clock = new ManualClock();
  const registry = new ChannelRegistry(
    options.channels ?? [channel('ax-a'), channel('ax-b')],
    new UpstreamBreakers(resolveHttpOptions({})),
  );
  const settings = options.stored ?? new InMemoryChannelSettings();
  const audit = inMemoryAuditTrail(clock);
  const control = new ChannelControl(
    settings,
    registry,
    clock,
    new FakeTransactionRunner(),
    audit.trail,
    {} as ChannelCredentialCheck,
    options.redis?.connection(),
  );
  return { control, registry, settings, audit, clock };
}

describe('ChannelControl', () => {
  let started: ChannelControl[] = [];
  afterEach(async () => {
    await Promise.all(started.map((control) => control.onApplicationShutdown()));
    started = [];
  });

  it('stores an operator change, applies it here at once and audits the channel as it was and is', async () => {
    const f = setup();
    const state = await f.control.update('ax-a', { weight: 7 }, OWNER_ORIGIN);
    expect(state).toMatchObject({ id: 'ax-a', enabled: true, weight: 7 });
    expect(f.settings.rows.get('ax-a')).toEqual({
      channelId: 'ax-a',
      enabled: null,
      priority: null,
      weight: 7,
      updatedAt: f.clock.nowMs(),
    });
    expect(f.registry.weightOf(f.registry.byId('ax-a')!)).toBe(7);
    expect(f.registry.weightOf(f.registry.byId('ax-b')!)).toBe(2);
    expect(f.audit.entries()).toEqual([
      {
        action: 'channel.update',
        target: { type: 'channel', id: 'ax-a', accountId: null },
        before: { enabled: true, weight: 2, priority: 0 },
        after: { enabled: true, weight: 7, priority: 0 },
      },
    ]);
  });

  it('a later change keeps the field it does not send', async () => {
    const f = setup();
    await f.control.update('ax-a', { enabled: false }, OWNER_ORIGIN);
    expect(await f.control.update('ax-a', { weight: 3 }, OWNER_ORIGIN)).toMatchObject({ enabled: false, weight: 3 });
    expect(await f.control.update('ax-a', { enabled: true }, OWNER_ORIGIN)).toMatchObject({ enabled: true, weight: 3 });
    expect(f.settings.rows.get('ax-a')).toMatchObject({ enabled: true, weight: 3 });
    expect(f.audit.entries()[1]).toMatchObject({
      before: { enabled: false, weight: 2, priority: 0 },
      after: { enabled: false, weight: 3, priority: 0 },
    });
  });

  it('an unknown channel is no change: nothing stored, nothing audited', async () => {
    const f = setup();
    await expect(f.control.update('nope', { enabled: false }, OWNER_ORIGIN)).resolves.toBeUndefined();
    expect(f.settings.rows.size).toBe(0);
    expect(f.audit.repository.entries).toEqual([]);
  });

  it('tells the other instances through Redis; one that hears it applies the stored change', async () => {
    const redis = new FakeRedis();
    const stored = new InMemoryChannelSettings();
    const here = setup({ redis, stored });
    const there = setup({ redis, stored });
    started.push(here.control, there.control);
    await here.control.onModuleInit();
    await there.control.onModuleInit();
    await here.control.update('ax-b', { enabled: false }, OWNER_ORIGIN);
    expect(redis.published).toEqual([{ channel: CHANNEL_SETTINGS_CHANGED, message: 'ax-b' }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(there.registry.isEnabled('ax-b')).toBe(false);
  });

  it('a Redis failure does not undo or fail the change: it is stored and applied here', async () => {
    const redis = new FakeRedis();
    redis.failPublish = new Error('connection lost');
    const f = setup({ redis });
    await expect(f.control.update('ax-a', { enabled: false }, OWNER_ORIGIN)).resolves.toMatchObject({ enabled: false });
    expect(f.settings.rows.get('ax-a')).toMatchObject({ enabled: false });
    expect(f.registry.isEnabled('ax-a')).toBe(false);
  });

  it('at start applies the settings stored by operators earlier', async () => {
    const stored = new InMemoryChannelSettings(
      channelSettingFactory.build({ channelId: 'ax-a', enabled: false }),
      channelSettingFactory.build({ channelId: 'ax-b', weight: 9 }),
    );
    const f = setup({ stored });
    started.push(f.control);
    await f.control.onModuleInit();
    expect(f.registry.isEnabled('ax-a')).toBe(false);
    expect(f.registry.weightOf(f.registry.byId('ax-a')!)).toBe(2);
    expect(f.registry.weightOf(f.registry.byId('ax-b')!)).toBe(9);
  });

  it('lists every channel with the open tasks counted across instances', async () => {
    const f = setup();
    f.settings.openTasks = new Map([['ax-a', 4]]);
    const states = await f.control.list();
    expect(states.map((s) => [s.id, s.inFlight])).toEqual([
      ['ax-a', 4],
      ['ax-b', 0],
    ]);
  });
});
