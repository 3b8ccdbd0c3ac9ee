import { LocalAllowances, RateDecision, WindowTake, allowanceBatch } from './local-allowance';

/** A shared fixed one-minute window per key, as Redis holds it, on a time the test moves. */
class FakeSharedWindow {
  time = 0;
  takes = 0;
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  take = async (key: string, _perMinute: number, points: number): Promise<WindowTake> => {
    this.takes++;
    await Promise.resolve(); // a round trip: concurrent callers overlap
    let window = this.windows.get(key);
    if (!window || this.time >= window.endsAt) {
      window = { count: 0, endsAt: this.time + 60_000 };
      this.windows.set(key, window);
    }
    window.count += points;
    return { consumed: window.count, msBeforeNext: window.endsAt - this.time };
  };

  count(key: string): number {
    return this.windows.get(key)?.count ?? 0;
  }
}

async function inTurn(n: number, consume: (i: number) => Promise<RateDecision>): Promise<RateDecision[]> {
  const out: RateDecision[] = [];
  for (let i = 0; i < n; i++) out.push(await consume(i));
  return out;
}

describe('allowanceBatch', () => {
  it('is 1 under 200 a minute (exact per request), 1% of the limit above, at most 50', () => {
    expect([1, 60, 199].map(allowanceBatch)).toEqual([1, 1, 1]);
    expect([200, 600, 1000, 4999].map(allowanceBatch)).toEqual([2, 6, 10, 49]);
    expect([5000, 100_000_000].map(allowanceBatch)).toEqual([50, 50]);
  });
});

describe('LocalAllowances', () => {
  it('lets exactly the limit through on one instance, asking the shared count once per batch', async () => {
    const shared = new FakeSharedWindow();
    const allowances = new LocalAllowances(shared.take, () => shared.time);
    const decisions = await inTurn(1010, () => allowances.consume('acct', 1000));

    expect(decisions.filter((d) => d.allowed)).toHaveLength(1000);
    expect(decisions.slice(1000).every((d) => !d.allowed && d.remaining === 0 && d.resetSeconds === 60)).toBe(true);
    // RateLimit-Remaining counts down as if each request had asked the shared count.
    expect(decisions.slice(0, 1000).map((d) => d.remaining)).toEqual(Array.from({ length: 1000 }, (_, i) => 999 - i));
    // 100 batches of 10; the refusals after it are answered in process.
    expect(shared.takes).toBe(100);
    expect(shared.count('acct')).toBe(1000);
  });

  it('never lets more than the limit through across instances, and refuses at most (batch-1) early per other instance', async () => {
    const shared = new FakeSharedWindow();
    const one = new LocalAllowances(shared.take, () => shared.time);
    const two = new LocalAllowances(shared.take, () => shared.time);
    const decisions = await inTurn(2000, (i) => (i % 3 === 0 ? two : one).consume('acct', 1000));
    const allowed = decisions.filter((d) => d.allowed).length;

    expect(allowed).toBeLessThanOrEqual(1000);
    expect(allowed).toBeGreaterThanOrEqual(1000 - (allowanceBatch(1000) - 1));
  });

  it('a limit under 200 asks the shared count for every request it lets through', async () => {
    const shared = new FakeSharedWindow();
    const one = new LocalAllowances(shared.take, () => shared.time);
    const two = new LocalAllowances(shared.take, () => shared.time);
    const decisions = await inTurn(40, (i) => (i % 2 ? two : one).consume('acct', 30));

    expect(decisions.filter((d) => d.allowed)).toHaveLength(30);
    expect(decisions.slice(0, 30).every((d) => d.allowed)).toBe(true);
    // One take per request let through, and one more by the instance that had not yet seen the count reach the limit.
    expect(shared.takes).toBe(31);
  });

  it('concurrent requests that find the allowance empty share one take', async () => {
    const shared = new FakeSharedWindow();
    const allowances = new LocalAllowances(shared.take, () => shared.time);
    const decisions = await Promise.all(Array.from({ length: 50 }, () => allowances.consume('acct', 1000)));

    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(shared.takes).toBe(5);
  });

  it('starts again when the shared window ends, not before', async () => {
    const shared = new FakeSharedWindow();
    const allowances = new LocalAllowances(shared.take, () => shared.time);
    await inTurn(1000, () => allowances.consume('acct', 1000));

    shared.time = 59_000;
    expect(await allowances.consume('acct', 1000)).toMatchObject({ allowed: false, resetSeconds: 1 });
    shared.time = 60_000;
    expect(await allowances.consume('acct', 1000)).toMatchObject({ allowed: true, remaining: 999, resetSeconds: 60 });
  });

  it('keeps accounts and limits apart', async () => {
    const shared = new FakeSharedWindow();
    const allowances = new LocalAllowances(shared.take, () => shared.time);
    await inTurn(1000, () => allowances.consume('a', 1000));

    expect(await allowances.consume('a', 1000)).toMatchObject({ allowed: false });
    expect(await allowances.consume('b', 1000)).toMatchObject({ allowed: true, remaining: 999 });
  });

  it('a failing store fails every waiting request, and the next request asks again', async () => {
    let fail = true;
    const shared = new FakeSharedWindow();
    const take = async (key: string, perMinute: number, points: number) => {
      if (fail) throw new Error('redis down');
      return shared.take(key, perMinute, points);
    };
    const allowances = new LocalAllowances(take, () => shared.time);
    const failed = await Promise.allSettled([allowances.consume('acct', 1000), allowances.consume('acct', 1000)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);

    fail = false;
    expect(await allowances.consume('acct', 1000)).toMatchObject({ allowed: true, remaining: 999 });
  });
});
