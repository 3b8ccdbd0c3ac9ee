import { SlotDriftTracker } from './slot-drift';

const row = (accountId: string, inFlight: number, open: number) => ({ accountId, inFlight, open });

describe('SlotDriftTracker', () => {
  it('never corrects on a single look (a create or finish may be in passing)', () => {
    const tracker = new SlotDriftTracker();
    expect(tracker.confirm([row('a', 3, 1), row('b', 0, 2)])).toEqual([]);
  });

  it('confirms a difference seen with the same figures twice, in either direction', () => {
    const tracker = new SlotDriftTracker();
    tracker.confirm([row('a', 3, 1), row('b', 0, 2)]);
    expect(tracker.confirm([row('a', 3, 1), row('b', 0, 2)])).toEqual([row('a', 3, 1), row('b', 0, 2)]);
  });

  it('starts over when the figures moved or the counter agreed in between', () => {
    const tracker = new SlotDriftTracker();
    tracker.confirm([row('a', 3, 1), row('b', 2, 1)]);
    expect(tracker.confirm([row('a', 4, 2), row('b', 1, 1)])).toEqual([]);
    expect(tracker.confirm([row('a', 4, 2), row('b', 2, 1)])).toEqual([row('a', 4, 2)]);
  });

  it('forgets a confirmed drift, so a correction that did not take needs two new looks', () => {
    const tracker = new SlotDriftTracker();
    tracker.confirm([row('a', 1, 0)]);
    expect(tracker.confirm([row('a', 1, 0)])).toHaveLength(1);
    expect(tracker.confirm([row('a', 1, 0)])).toEqual([]);
    expect(tracker.confirm([row('a', 1, 0)])).toHaveLength(1);
  });

  it('keeps what it saw of accounts on other pages', () => {
    const tracker = new SlotDriftTracker();
    tracker.confirm([row('a', 1, 0)]);
    tracker.confirm([row('z', 5, 5)]);
    expect(tracker.confirm([row('a', 1, 0)])).toEqual([row('a', 1, 0)]);
  });
});
