import { UpstreamBreakers } from '../http/upstream-breakers';
import { UpstreamFault } from '../http/upstream-fault';
import { resolveHttpOptions } from '../http/upstream-http-options';
import { UpstreamChannel, UpstreamUnavailableError } from '../upstream.types';
import { ChannelRegistry } from './channel-registry';

const channel = (id: string, family: UpstreamChannel['family']): UpstreamChannel => ({
  id,
  family,
  baseUrl: `http://${id}.example`,
  apiKey: 'k',
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
});
