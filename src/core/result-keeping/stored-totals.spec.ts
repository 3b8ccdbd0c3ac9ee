import { ManualClock } from '../../platform/time/clock';
import { ResultFilesRepository } from './result-files.repository';
import { STORED_TOTALS_MAX_AGE_MS, StoreTotals, StoredTotals } from './stored-totals';

function setup(counts: Array<StoreTotals | Error>) {
  const calls = { n: 0 };
  const files = {
    storedTotals: () => {
      const next = counts[Math.min(calls.n++, counts.length - 1)];
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
  } as unknown as ResultFilesRepository;
  const clock = new ManualClock();
  return { totals: new StoredTotals(files, clock), clock, calls };
}

describe('StoredTotals', () => {
  it('counts the store once per max age, however often it is read', async () => {
    const { totals, clock, calls } = setup([
      { files: 1, bytes: 1000 },
      { files: 4, bytes: 5000 },
    ]);
    expect(await Promise.all([totals.read(), totals.read()])).toEqual([
      { files: 1, bytes: 1000 },
      { files: 1, bytes: 1000 },
    ]);
    clock.advance(STORED_TOTALS_MAX_AGE_MS - 1);
    expect(await totals.read()).toEqual({ files: 1, bytes: 1000 });
    expect(calls.n).toBe(1);
    clock.advance(1);
    expect(await totals.read()).toEqual({ files: 4, bytes: 5000 });
    expect(calls.n).toBe(2);
  });

  it('adds the files this instance kept since the count, until the next count', async () => {
    const { totals, clock } = setup([
      { files: 1, bytes: 1000 },
      { files: 3, bytes: 1700 },
    ]);
    await totals.read();
    totals.added(300);
    totals.added(400);
    expect(await totals.read()).toEqual({ files: 3, bytes: 1700 });
    clock.advance(STORED_TOTALS_MAX_AGE_MS);
    expect(await totals.read()).toEqual({ files: 3, bytes: 1700 });
  });

  it('adds nothing before the first count (that count includes it)', async () => {
    const { totals } = setup([{ files: 1, bytes: 1000 }]);
    totals.added(300);
    expect(await totals.read()).toEqual({ files: 1, bytes: 1000 });
  });

  it('counts again at the next read after a count fails', async () => {
    const { totals, calls } = setup([new Error('database unreachable'), { files: 2, bytes: 2000 }]);
    await expect(totals.read()).rejects.toThrow('database unreachable');
    expect(await totals.read()).toEqual({ files: 2, bytes: 2000 });
    expect(calls.n).toBe(2);
  });
});
