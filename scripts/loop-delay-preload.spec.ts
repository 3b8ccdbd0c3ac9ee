import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PRELOAD = join(__dirname, '..', 'bench', 'loop-delay-preload.js');

/**
 * A child with the preload that idles, holds its loop for `holdMs`, idles, then marks itself and
 * exits; resolves with the lines it wrote.
 */
function runChild(holdMs: number): Promise<Array<Record<string, number | string>>> {
  const dir = mkdtempSync(join(tmpdir(), 'loop-delay-'));
  const file = join(dir, 'delay.jsonl');
  const code = `
    setTimeout(() => {
      const until = Date.now() + ${holdMs};
      while (Date.now() < until) {}
      setTimeout(() => { process.kill(process.pid, 'SIGWINCH'); setTimeout(() => {}, 50); }, 100);
    }, 100);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', PRELOAD, '-e', code], {
      env: { ...process.env, BENCH_LOOP_DELAY_FILE: file },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('exit', () => {
      try {
        resolve(
          readFileSync(file, 'utf8')
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line)),
        );
      } catch (error) {
        reject(error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

describe('bench loop-delay preload', () => {
  it('writes a line at each mark and at exit, the mark holding the loop held before it, the next starting afresh', async () => {
    const [mark, exit] = await runChild(400);
    expect(mark).toMatchObject({ mark: 'mark' });
    expect(exit).toMatchObject({ mark: 'exit' });
    expect(mark.samples).toBeGreaterThan(10);
    expect(mark.max).toBeGreaterThanOrEqual(380);
    expect(mark.p50).toBeLessThan(mark.max as number);
    expect(exit.max).toBeLessThan(300);
  }, 15_000);
});
