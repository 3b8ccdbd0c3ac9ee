import { ManualClock } from '../../platform/time/clock';
import { ResultFilesRepository } from './result-files.repository';
import { STORED_BYTES_MAX_AGE_MS, StoredBytes } from './stored-bytes';

function setup(totals: Array<number | Error>) {
  const counts = { calls: 0 };
  const files = {
    storedBytes: () => {
      const next = totals[Math.min(counts.calls++, totals.length - 1)];
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
  } as unknown as ResultFilesRepository;
  const clock = new ManualClock();
  return { stored: new StoredBytes(files, clock), clock, counts };
}

describe('StoredBytes', () => {
  it('counts the store once per max age, however often it is read', async () => {
    const { stored, clock, counts } = setup([1000, 5000]);
    expect(await Promise.all([stored.read(), stored.read()])).toEqual([1000, 1000]);
    clock.advance(STORED_BYTES_MAX_AGE_MS - 1);
    expect(await stored.read()).toBe(1000);
    expect(counts.calls).toBe(1);
    clock.advance(1);
    expect(await stored.read()).toBe(5000);
    expect(counts.calls).toBe(2);
  });

  it('adds what this instance kept since the count, until the next count', async () => {
    const { stored, clock } = setup([1000, 1700]);
    await stored.read();
    stored.added(300);
    stored.added(400);
    expect(await stored.read()).toBe(1700);
    clock.advance(STORED_BYTES_MAX_AGE_MS);
    expect(await stored.read()).toBe(1700);
  });

  it('adds nothing before the first count (that count includes it)', async () => {
    const { stored } = setup([1000]);
    stored.added(300);
    expect(await stored.read()).toBe(1000);
  });

  it('counts again at the next read after a count fails', async () => {
    const { stored, counts } = setup([new Error('database unreachable'), 2000]);
    await expect(stored.read()).rejects.toThrow('database unreachable');
    expect(await stored.read()).toBe(2000);
    expect(counts.calls).toBe(2);
  });
});
