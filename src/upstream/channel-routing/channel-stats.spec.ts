import { ChannelLoad } from './channel-load';
import { ChannelStats } from './channel-stats';

describe('ChannelStats', () => {
  it('counts creates and errors over the last minute and hour, and forgets older ones', () => {
    const stats = new ChannelStats();
    const t0 = 1_700_000_000_000;
    stats.record('a', 50, undefined, t0);
    stats.record('a', 70, 'HTTP 503', t0 + 30_000);
    stats.record('a', 90, undefined, t0 + 120_000);
    expect(stats.figures('a', t0 + 120_000)).toEqual({
      lastMinute: { creates: 1, errors: 0 },
      lastHour: { creates: 3, errors: 1 },
      latencyMs: { p50: 70, p99: 90 },
      lastError: { at: t0 + 30_000, message: 'HTTP 503' },
    });
    expect(stats.figures('a', t0 + 2 * 3_600_000)).toMatchObject({
      lastMinute: { creates: 0, errors: 0 },
      lastHour: { creates: 0, errors: 0 },
      latencyMs: null,
    });
    expect(stats.figures('unknown', t0).lastHour).toEqual({ creates: 0, errors: 0 });
  });
});

describe('ChannelLoad', () => {
  it('adds what this instance opened and closed since the last count to that count', () => {
    const load = new ChannelLoad();
    load.opened('a');
    load.opened('a');
    expect(load.inFlight('a')).toBe(2);
    const apply = load.beginCount();
    load.opened('a'); // while the count runs
    apply(new Map([['a', 7]]));
    expect(load.inFlight('a')).toBe(8);
    load.closed('a');
    expect(load.inFlight('a')).toBe(7);
    expect(load.inFlight('b')).toBe(0);
  });
});
