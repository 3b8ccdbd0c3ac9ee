import { UpstreamBreakers } from '../http/upstream-breakers';
import { UpstreamFault } from '../http/upstream-fault';
import { resolveHttpOptions } from '../http/upstream-http-options';
import { Logger } from '@nestjs/common';
import {
  UpstreamChannel,
  UpstreamCredentialsRefusedError,
  UpstreamRejectedError,
  UpstreamUnavailableError,
} from '../upstream.types';
import { BALANCE_COOL_DOWN_MS, CREDENTIALS_COOL_DOWN_MS, ChannelRegistry } from './channel-registry';

const channel = (
  id: string,
  family: UpstreamChannel['family'],
  extra: Partial<UpstreamChannel> = {},
): UpstreamChannel => ({
  id,
  family,
  baseUrl: `http://${id}.example`,
  apiKey: 'k',
  ...extra,
});

async function openBreaker(breakers: UpstreamBreakers, channelId: string, failures: number): Promise<void> {
  for (let i = 0; i < failures; i++) {
    await breakers
      .policyFor(channelId)
      .execute(() => {
        throw new UpstreamFault('http-5xx', 'HTTP 500', true, 500);
      })
      .catch(() => undefined);
  }
}

describe('ChannelRegistry', () => {
  const options = resolveHttpOptions({ breakerConsecutiveFailures: 2, breakerHalfOpenAfterMs: 60_000 });
  let breakers: UpstreamBreakers;
  let registry: ChannelRegistry;

  beforeEach(() => {
    breakers = new UpstreamBreakers(options);
    registry = new ChannelRegistry([channel('ax-a', 'ax'), channel('ax-b', 'ax'), channel('vd-a', 'vd')], breakers);
  });

  it('round-robins over the channels of a family', () => {
    expect([1, 2, 3, 4].map(() => registry.forFamily('ax').id)).toEqual(['ax-a', 'ax-b', 'ax-a', 'ax-b']);
    expect(registry.forFamily('vd').id).toBe('vd-a');
  });

  it('skips a channel whose breaker is open', async () => {
    await openBreaker(breakers, 'ax-a', 2);
    expect([1, 2, 3].map(() => registry.forFamily('ax').id)).toEqual(['ax-b', 'ax-b', 'ax-b']);
  });

  it('falls back to any channel of the family when every breaker is open', async () => {
    await openBreaker(breakers, 'ax-a', 2);
    await openBreaker(breakers, 'ax-b', 2);
    expect(new Set([1, 2].map(() => registry.forFamily('ax').id))).toEqual(new Set(['ax-a', 'ax-b']));
  });

  it('offers an open channel again once its breaker would let a probe through', async () => {
    await openBreaker(breakers, 'ax-a', 2);
    expect(breakers.isAcceptingCalls('ax-a')).toBe(false);
    expect(breakers.isAcceptingCalls('ax-a', Date.now() + options.breakerHalfOpenAfterMs)).toBe(true);
  });

  it('throws Unavailable for a family without channels', () => {
    expect(() => registry.forFamily('kl')).toThrow(UpstreamUnavailableError);
  });

  it('finds a channel by id', () => {
    expect(registry.byId('vd-a')?.family).toBe('vd');
    expect(registry.byId('gone')).toBeUndefined();
    expect(registry.all()).toHaveLength(3);
  });

  it('refuses duplicate ids', () => {
    expect(() => new ChannelRegistry([channel('x', 'ax'), channel('x', 'vd')], breakers)).toThrow(/configured twice/);
  });

  describe('routing settings', () => {
    const shares = (reg: ChannelRegistry, n: number, model?: string) => {
      const counts: Record<string, number> = {};
      for (let i = 0; i < n; i++) {
        const id = reg.pick('ax', model)?.id ?? 'none';
        counts[id] = (counts[id] ?? 0) + 1;
      }
      return counts;
    };

    it('spreads picks by weight: over 2,000 each share is within 5 points of its weight share', () => {
      const reg = new ChannelRegistry(
        [channel('a', 'ax', { weight: 5 }), channel('b', 'ax', { weight: 3 }), channel('c', 'ax', { weight: 2 })],
        breakers,
      );
      const counts = shares(reg, 2000);
      expect(Math.abs(counts.a / 2000 - 0.5)).toBeLessThan(0.05);
      expect(Math.abs(counts.b / 2000 - 0.3)).toBeLessThan(0.05);
      expect(Math.abs(counts.c / 2000 - 0.2)).toBeLessThan(0.05);
      // Smooth: the heaviest channel is never picked more than twice in a row.
      const run = Array.from({ length: 10 }, () => reg.pick('ax')!.id).join('');
      expect(run).not.toMatch(/aaa/);
    });

    it('weight 0 or disabled: no new task; an operator weight overrides the configured one', () => {
      const reg = new ChannelRegistry(
        [channel('a', 'ax', { weight: 0 }), channel('b', 'ax'), channel('c', 'ax')],
        breakers,
      );
      expect(shares(reg, 10)).toEqual({ b: 5, c: 5 });
      reg.applyOverrides(
        new Map([
          ['c', { enabled: false }],
          ['a', { weight: 1 }],
        ]),
      );
      expect(shares(reg, 10)).toEqual({ a: 5, b: 5 });
      expect(reg.byId('c')).toBeDefined();
      expect(reg.stateOf(reg.byId('c')!)).toMatchObject({ enabled: false, weight: 1 });
      reg.applyOverrides(
        new Map([
          ['a', { enabled: false }],
          ['b', { enabled: false }],
          ['c', { enabled: false }],
        ]),
      );
      expect(reg.pick('ax')).toBeUndefined();
      expect(() => reg.forFamily('ax')).toThrow(/No upstream channel of family ax is available/);
    });

    it('uses a lower priority tier only while no channel of the higher one is available', async () => {
      const reg = new ChannelRegistry(
        [
          channel('backup', 'ax', { priority: -1 }),
          channel('main-1', 'ax', { priority: 5 }),
          channel('main-2', 'ax', { priority: 5 }),
        ],
        breakers,
      );
      expect(shares(reg, 10)).toEqual({ 'main-1': 5, 'main-2': 5 });
      await openBreaker(breakers, 'main-1', 2);
      expect(shares(reg, 4)).toEqual({ 'main-2': 4 });
      await openBreaker(breakers, 'main-2', 2);
      expect(shares(reg, 4)).toEqual({ backup: 4 });
    });

    it('serves a model only on the channels that list it (or list none)', () => {
      const reg = new ChannelRegistry(
        [channel('only-x', 'ax', { models: ['x'], weight: 3 }), channel('every', 'ax')],
        breakers,
      );
      expect(shares(reg, 8, 'y')).toEqual({ every: 8 });
      expect(shares(reg, 8, 'x')).toEqual({ 'only-x': 6, every: 2 });
    });

    it('skips a channel at its maxInFlight, and the channels a request already tried', () => {
      const reg = new ChannelRegistry(
        [channel('small', 'ax', { maxInFlight: 2, priority: 1 }), channel('big', 'ax')],
        breakers,
      );
      reg.load.opened('small');
      expect(reg.pick('ax')?.id).toBe('small');
      reg.load.opened('small');
      expect(reg.pick('ax')?.id).toBe('big');
      reg.load.closed('small');
      expect(reg.pick('ax')?.id).toBe('small');
      expect(reg.pick('ax', undefined, ['small'])?.id).toBe('big');
      expect(reg.pick('ax', undefined, ['small', 'big'])).toBeUndefined();
    });

    it('an out-of-balance answer cools the channel down for new tasks only, without touching its breaker', () => {
      const reg = new ChannelRegistry([channel('vd-a', 'vd', { priority: 1 }), channel('vd-b', 'vd')], breakers);
      const a = reg.byId('vd-a')!;
      const now = Date.now();
      expect(
        reg.createEnded(a, 12, new UpstreamRejectedError(403, 'CreditInsufficient', 'credit insufficient'), now),
      ).toBe('out-of-balance');
      expect(reg.pick('vd', undefined, [], now + 1)?.id).toBe('vd-b');
      expect(reg.byId('vd-a')).toBe(a);
      expect(reg.stateOf(a, now + 1)).toMatchObject({
        breaker: 'closed',
        coolingDownUntil: now + BALANCE_COOL_DOWN_MS,
      });
      expect(reg.pick('vd', undefined, [], now + BALANCE_COOL_DOWN_MS + 1)?.id).toBe('vd-a');
    });

    describe('a channel whose credentials the upstream refuses', () => {
      const refused = () =>
        new UpstreamCredentialsRefusedError(
          'Upstream channel ax-a refused its credentials (HTTP 401, InvalidApiKey): Invalid API-key provided.',
          401,
          'InvalidApiKey',
        );
      let errors: jest.SpyInstance;
      beforeEach(() => {
        errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      });
      afterEach(() => errors.mockRestore());
      const errorLines = () =>
        errors.mock.calls.filter(([fields]) => (fields as { channel?: string }).channel === 'ax-a');

      it('is unhealthy with the reason, takes no new task for the cool-down, with one ERROR line naming it', () => {
        const reg = new ChannelRegistry([channel('ax-a', 'ax', { priority: 1 }), channel('ax-b', 'ax')], breakers);
        const a = reg.byId('ax-a')!;
        const now = Date.now();
        expect(reg.createEnded(a, 3, refused(), now)).toBe('credentials-refused');
        expect(reg.stateOf(a, now + 1)).toMatchObject({
          breaker: 'closed',
          coolingDownUntil: null,
          unhealthy: { reason: expect.stringContaining('InvalidApiKey'), since: now },
        });
        expect(reg.stateOf(reg.byId('ax-b')!, now + 1).unhealthy).toBeNull();
        expect(reg.pick('ax', undefined, [], now + 1)?.id).toBe('ax-b');
        expect(errorLines()).toHaveLength(1);
        expect(errorLines()[0][0]).toMatchObject({ channel: 'ax-a', family: 'ax', status: 401, code: 'InvalidApiKey' });
        expect(String(errorLines()[0][1])).toContain('ax-a');
        // Task queries refused meanwhile keep it so, without another ERROR line.
        reg.callEnded(a, refused(), now + 2);
        expect(errorLines()).toHaveLength(1);
        // After the cool-down a create tries it again; still refused: unhealthy since the first time, logged again.
        const later = now + CREDENTIALS_COOL_DOWN_MS + 1;
        expect(reg.pick('ax', undefined, [], later)?.id).toBe('ax-a');
        reg.createEnded(a, 3, refused(), later);
        expect(reg.pick('ax', undefined, [], later + 1)?.id).toBe('ax-b');
        expect(reg.stateOf(a, later + 1).unhealthy?.since).toBe(now);
        expect(errorLines()).toHaveLength(2);
      });

      it('is healthy again once a call on it is answered (a query, or a create)', () => {
        const reg = new ChannelRegistry([channel('ax-a', 'ax', { priority: 1 }), channel('ax-b', 'ax')], breakers);
        const a = reg.byId('ax-a')!;
        const now = Date.now();
        reg.callEnded(a, refused(), now);
        expect(reg.stateOf(a, now).unhealthy).not.toBeNull();
        expect(reg.pick('ax', undefined, [], now + 1)?.id).toBe('ax-b');
        reg.callEnded(a, undefined, now + 2);
        expect(reg.stateOf(a, now + 2).unhealthy).toBeNull();
        expect(reg.pick('ax', undefined, [], now + 3)?.id).toBe('ax-a');
        reg.createEnded(a, 3, refused(), now + 4);
        reg.createEnded(a, 3, undefined, now + 5);
        expect(reg.stateOf(a, now + 5).unhealthy).toBeNull();
      });

      it('a refusal of the request itself, or a throttle, leaves the channel healthy', () => {
        const a = registry.byId('ax-a')!;
        registry.createEnded(a, 3, new UpstreamRejectedError(400, 'InvalidParameter', 'bad prompt'));
        registry.callEnded(a, new UpstreamRejectedError(429, 'Throttling', 'slow down'));
        registry.callEnded(a, new UpstreamUnavailableError('answered HTTP 503', 503));
        expect(registry.stateOf(a).unhealthy).toBeNull();
        expect(errorLines()).toHaveLength(0);
      });
    });

    it('shows an open breaker and an out-of-balance account as unhealthy, with the reason', async () => {
      const a = registry.byId('ax-a')!;
      registry.createEnded(a, 3, new UpstreamUnavailableError('answered HTTP 503', 503));
      await openBreaker(breakers, 'ax-a', 2);
      expect(registry.stateOf(a).unhealthy).toMatchObject({ reason: expect.stringContaining('circuit open') });
      const vd = registry.byId('vd-a')!;
      const now = Date.now();
      registry.createEnded(vd, 3, new UpstreamRejectedError(403, 'CreditInsufficient', 'credit insufficient'), now);
      expect(registry.stateOf(vd, now + 1).unhealthy).toEqual({
        reason: expect.stringContaining('out of balance'),
        since: now,
      });
    });

    it('records creates and errors per channel for the operator view', () => {
      const reg = new ChannelRegistry([channel('ax-a', 'ax')], breakers);
      const a = reg.byId('ax-a')!;
      expect(reg.createEnded(a, 100)).toBe('accepted');
      expect(reg.createEnded(a, 300, new UpstreamUnavailableError('answered HTTP 503'))).toBe('refused');
      expect(reg.stateOf(a).figures).toMatchObject({
        lastMinute: { creates: 2, errors: 1 },
        lastHour: { creates: 2, errors: 1 },
        latencyMs: { p50: 100, p99: 300 },
        lastError: { message: 'answered HTTP 503' },
      });
    });
  });
});
