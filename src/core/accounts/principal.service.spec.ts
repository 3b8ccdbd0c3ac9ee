import { ManualClock } from '../../platform/time/clock';
import { hashApiKey } from './api-key-secret';
import { PrincipalService } from './principal.service';

/** PrincipalService against small in-memory repository fakes. */
function setup() {
  const key = {
    id: 'key_1',
    accountId: 'acct_1',
    prefix: 'vgw_abc',
    keyHash: hashApiKey('vgw_good'),
    models: null,
    expiresAt: null,
    revokedAt: null as number | null,
  };
  const account = { id: 'acct_1', name: 'a', disabled: false, rateLimitRpm: null, maxConcurrentTasks: null };
  const calls = { keys: 0, delayMs: 5 };
  const keys = {
    findByHash: async (hash: string) => {
      calls.keys++;
      if (calls.delayMs > 0) await new Promise((r) => setTimeout(r, calls.delayMs));
      return hash === key.keyHash ? { ...key } : null;
    },
    touch: jest.fn(async () => undefined),
  };
  const accounts = { findById: async () => ({ ...account }) };
  const grants = { listForAccount: async () => [{ model: 'vdq3', capabilities: ['reference2video'] }] };
  const clock = new ManualClock();
  const service = new PrincipalService(accounts as never, keys as never, grants as never, clock);
  return { service, key, account, calls, clock, keys };
}

describe('PrincipalService', () => {
  it('resolves a key to its account and grants', async () => {
    const { service } = setup();
    const p = await service.resolve('vgw_good');
    expect(p?.account.id).toBe('acct_1');
    expect(p?.grants.get('vdq3')).toEqual(['reference2video']);
    expect(await service.resolve('vgw_bad')).toBeNull();
  });

  it('shares one database lookup between concurrent requests with the same key', async () => {
    const { service, calls } = setup();
    await Promise.all(Array.from({ length: 20 }, () => service.resolve('vgw_good')));
    expect(calls.keys).toBe(1);
  });

  it('caches for a few seconds, then looks again; an admin change drops the cache at once', async () => {
    const { service, calls, clock, key } = setup();
    await service.resolve('vgw_good');
    await service.resolve('vgw_good');
    expect(calls.keys).toBe(1);
    clock.advance(6000);
    await service.resolve('vgw_good');
    expect(calls.keys).toBe(2);
    key.revokedAt = clock.nowMs();
    await service.invalidate();
    expect(await service.resolve('vgw_good')).toBeNull();
  });

  it("records a key's last use at most once a minute", async () => {
    const { service, clock, keys } = setup();
    await service.resolve('vgw_good');
    clock.advance(30_000);
    await service.resolve('vgw_good');
    expect(keys.touch).toHaveBeenCalledTimes(1);
    clock.advance(31_000);
    await service.resolve('vgw_good');
    expect(keys.touch).toHaveBeenCalledTimes(2);
  });

  it('refuses an expired key', async () => {
    const { service, key, clock } = setup();
    key.expiresAt = (clock.nowMs() - 1) as never;
    expect(await service.resolve('vgw_good')).toBeNull();
  });

  it('keeps the cache bounded under a flood of random keys', async () => {
    const { service, calls } = setup();
    calls.delayMs = 0;
    for (let i = 0; i < 10050; i++) await service.resolve(`vgw_random_${i}`);
    const caches = service as unknown as { cache: Map<string, unknown>; misses: Map<string, unknown> };
    expect(caches.cache.size + caches.misses.size).toBeLessThanOrEqual(10000);
  });

  it('a flood of random keys does not push a real key out of the cache', async () => {
    const { service, calls } = setup();
    calls.delayMs = 0;
    expect(await service.resolve('vgw_good')).not.toBeNull();
    for (let i = 0; i < 10050; i++) await service.resolve(`vgw_random_${i}`);
    const before = calls.keys;
    expect(await service.resolve('vgw_good')).not.toBeNull();
    expect(calls.keys).toBe(before);
    // The flood itself is still remembered for the TTL: the last random key costs no second read.
    await service.resolve('vgw_random_10049');
    expect(calls.keys).toBe(before);
  });
});
