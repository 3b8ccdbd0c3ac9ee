import pino from 'pino';
import { Writable } from 'stream';
import { createRootLogger } from '../../src/platform/logging/logging.module';

/** The gateway's root logger writing into memory: `lines()` gives every JSON line written so far. */
export function captureLog(level = 'info'): { logger: pino.Logger; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    logger: createRootLogger(level, sink),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
