import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { RedisConnection } from '../redis/redis.provider';
import { RateDecision } from './local-allowance';
import { RateLimiterService } from './rate-limiter.service';

const redisUrl = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;

function service(url?: string): { limiter: RateLimiterService; connection: RedisConnection } {
  const connection = new RedisConnection({ REDIS_URL: url } as AppConfig);
  return { limiter: new RateLimiterService(connection), connection };
}

async function inTurn(n: number, consume: (i: number) => Promise<RateDecision>): Promise<RateDecision[]> {
  const out: RateDecision[] = [];
  for (let i = 0; i < n; i++) out.push(await consume(i));
  return out;
}

describe('RateLimiterService in process (no REDIS_URL)', () => {
  it('is exact per request: the limit, then 429s, remaining counting down', async () => {
    const { limiter } = service();
    const decisions = await inTurn(1005, () => limiter.consume('acct', 1000));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(1000);
    expect(decisions[0]).toMatchObject({ allowed: true, limit: 1000, remaining: 999 });
    expect(decisions[1004]).toMatchObject({ allowed: false, remaining: 0 });
  });
});

// On Redis (CI's second pass, or TEST_REDIS_URL): two services stand for two gateway instances.
const onRedis = (url: string) => () => {
  const instances = [service(url), service(url)];
  const probe = new Redis(url);

  afterAll(async () => {
    await Promise.all(instances.map(({ connection }) => connection.onApplicationShutdown()));
    await probe.quit();
  });

  /** Script calls Redis has run (rate-limiter-flexible takes from the count in one script call). */
  async function scriptCalls(): Promise<number> {
    const stats = await probe.info('commandstats');
    return [...stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
  }

  it('lets at most the limit through across both, at most (batch-1) short, with one round trip per batch', async () => {
    const key = `acct-${randomUUID()}`;
    const before = await scriptCalls();
    const decisions = await inTurn(1100, (i) => instances[i % 2].limiter.consume(key, 1000));
    const allowed = decisions.filter((d) => d.allowed).length;

    expect(allowed).toBeLessThanOrEqual(1000);
    expect(allowed).toBeGreaterThanOrEqual(991);
    // 1,100 requests: ~100 takes of 10 and one each to learn the window is spent, not 1,100.
    expect((await scriptCalls()) - before).toBeLessThanOrEqual(110);
  });

  it('a limit under 200 a minute is exact across both instances', async () => {
    const key = `acct-${randomUUID()}`;
    const decisions = await inTurn(60, (i) => instances[i % 2].limiter.consume(key, 30));
    expect(decisions.slice(0, 30).every((d) => d.allowed)).toBe(true);
    expect(decisions.slice(30).every((d) => !d.allowed)).toBe(true);
  });
};
if (redisUrl) describe('RateLimiterService on Redis, shared by two instances', onRedis(redisUrl));
