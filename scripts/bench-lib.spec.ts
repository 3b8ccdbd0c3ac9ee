import { ChildProcess, spawn } from 'node:child_process';
import { IDLE_SAMPLE_MS, idleCpuPerMs, inTurn, median } from '../bench/lib';

describe('bench lib: inTurn', () => {
  it('runs round 1 in the order given', () => {
    expect(inTurn(['base', 'main', 'off'], 1)).toEqual(['base', 'main', 'off']);
  });

  it('starts each round one variant further along, so each takes each place once in as many rounds', () => {
    const rounds = [1, 2, 3].map((round) => inTurn(['base', 'main', 'off'], round));
    expect(rounds).toEqual([
      ['base', 'main', 'off'],
      ['main', 'off', 'base'],
      ['off', 'base', 'main'],
    ]);
    for (const variant of ['base', 'main', 'off']) {
      expect(rounds.map((order) => order.indexOf(variant)).sort()).toEqual([0, 1, 2]);
    }
    expect(inTurn(['base', 'main', 'off'], 4)).toEqual(['base', 'main', 'off']);
  });
});

describe('bench lib: median', () => {
  it('is the middle value of an odd count and the mean of the middle two of an even one, in any order', () => {
    expect(median([12.5, 10.26, 11.45])).toBe(11.45);
    expect(median([12.32, 11.14, 11.45, 10.26])).toBeCloseTo(11.295, 10);
  });

  it('leaves out what is not a number, and is null when nothing is left', () => {
    expect(median([3, NaN, null as unknown as number, 1])).toBe(2);
    expect(median([])).toBeNull();
  });
});

describe('bench lib: idleCpuPerMs', () => {
  const children: ChildProcess[] = [];
  const child = (code: string) => {
    const c = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
    children.push(c);
    return c;
  };
  afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

  it('reads a quiet process as near zero over its default window, and a busy one as using the CPU', async () => {
    const quiet = child('setTimeout(() => {}, 60000)');
    const busy = child('for (;;) {}');
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    const quietSample = idleCpuPerMs(quiet.pid!);
    const busyPerMs = await idleCpuPerMs(busy.pid!, 600);
    busy.kill('SIGKILL');
    const quietPerMs = await quietSample;
    // One 10 ms tick of /proc is then at most 2 ms/s of the figure.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(IDLE_SAMPLE_MS);
    expect(IDLE_SAMPLE_MS).toBeGreaterThanOrEqual(5000);
    expect(quietPerMs).toBeLessThan(0.05);
    expect(busyPerMs).toBeGreaterThan(0.1);
  }, 15_000);
});
