import { Logger } from '@nestjs/common';
import { WorkerLoop } from './worker-loop';

describe('WorkerLoop', () => {
  const logger = { error: jest.fn() } as unknown as Logger;

  it('runs cycles back to back while they report a full batch, then pauses', async () => {
    const results = [10, 10, 3];
    let calls = 0;
    const delays: number[] = [];
    const loop = new WorkerLoop(
      'test',
      logger,
      async () => results[calls++] ?? 0,
      () => 60000,
    );
    loop.start(0, (done) => {
      const d = (done as number) >= 10 ? 0 : 60000;
      delays.push(d);
      return d;
    });
    for (let i = 0; i < 200 && delays.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    await loop.stop();
    expect(calls).toBe(3);
    expect(delays).toEqual([0, 0, 60000]);
  });

  it('keeps going after a failing cycle, and stops when asked', async () => {
    let calls = 0;
    const loop = new WorkerLoop(
      'test',
      logger,
      async () => {
        calls++;
        if (calls === 1) throw new Error('boom');
      },
      () => 1,
    );
    loop.start(0);
    for (let i = 0; i < 200 && calls < 3; i++) await new Promise((r) => setTimeout(r, 10));
    await loop.stop();
    const after = calls;
    await new Promise((r) => setTimeout(r, 20));
    expect(after).toBeGreaterThan(1);
    expect(calls).toBe(after);
    expect(logger.error).toHaveBeenCalled();
  });
});
