import { runPool } from './run-pool';

describe('runPool', () => {
  it('never runs more than the limit at once and runs every item', async () => {
    let inFlight = 0;
    let peak = 0;
    const done: number[] = [];
    await runPool([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      done.push(n);
    });
    expect(peak).toBe(3);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('keeps going when an item fails', async () => {
    const done: number[] = [];
    await runPool([1, 2, 3], 2, async (n) => {
      if (n === 1) throw new Error('boom');
      done.push(n);
    });
    expect(done.sort()).toEqual([2, 3]);
  });

  it('starts the items in order', async () => {
    const started: number[] = [];
    await runPool([1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      await new Promise((r) => setTimeout(r, 1));
    });
    expect(started).toEqual([1, 2, 3, 4, 5]);
  });

  it('does nothing for no items', async () => {
    const work = jest.fn();
    await runPool([], 4, work);
    expect(work).not.toHaveBeenCalled();
  });
});
