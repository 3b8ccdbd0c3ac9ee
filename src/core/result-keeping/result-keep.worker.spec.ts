import { loadConfig } from '../../platform/config/app-config';
import { ManualClock } from '../../platform/time/clock';
import { ResultFilesRepository } from './result-files.repository';
import { ResultKeepWorker } from './result-keep.worker';
import { ResultKeeper } from './result-keeper.service';

describe('ResultKeepWorker pacing', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A worker whose queue hands out `batches` in turn (then nothing), recording when it was asked. */
  function worker(batches: number[]) {
    const config = loadConfig({ SYNC_INTERVAL_MS: '100', RESULT_DOWNLOAD_CONCURRENCY: '4' });
    const asked: number[] = [];
    const files = {
      claimDue: (): Promise<unknown[]> => {
        asked.push(Date.now());
        return Promise.resolve(Array.from({ length: batches.shift() ?? 0 }, (_, i) => ({ taskId: `t${i}` })));
      },
    } as unknown as ResultFilesRepository;
    const recorded: number[] = [];
    const keeper = {
      enabled: true,
      attempt: (file: unknown) => Promise.resolve({ file, changes: {} }),
      record: (outcomes: unknown[]) => Promise.resolve(void recorded.push(outcomes.length)),
    } as unknown as ResultKeeper;
    return { asked, recorded, worker: new ResultKeepWorker(files, keeper, new ManualClock(), config) };
  }

  async function advance(ms: number): Promise<void> {
    for (let i = 0; i < ms; i += 10) await jest.advanceTimersByTimeAsync(10);
  }

  it('looks again one sync interval after a cycle that found less than a batch', async () => {
    const { asked, worker: w } = worker([1, 0, 0]);
    const start = Date.now();
    w.onApplicationBootstrap();
    await advance(250);
    await w.onApplicationShutdown();
    // Cycles at 0, 100 and 200 ms: files of tasks that end within a second are kept as they end.
    expect(asked.map((at) => at - start)).toEqual([0, 100, 200]);
  });

  it('goes again at once after a full batch', async () => {
    const { asked, worker: w } = worker([4, 4, 1]);
    const start = Date.now();
    w.onApplicationBootstrap();
    await advance(50);
    await w.onApplicationShutdown();
    // Three cycles within a few milliseconds, long before a sync interval is up.
    expect(asked).toHaveLength(3);
    expect(asked[2] - start).toBeLessThan(10);
  });

  it('records the outcomes of a cycle’s downloads together, once per cycle', async () => {
    const { recorded, worker: w } = worker([4, 3]);
    await expect(w.runCycle()).resolves.toBe(4);
    await expect(w.runCycle()).resolves.toBe(3);
    expect(recorded).toEqual([4, 3]);
  });
});
