import pino from 'pino';
import { createRootLogger } from '../../src/platform/logging/logging.module';

type LogLine = Record<string, unknown>;

/** A destination that keeps each line as it is written (synchronously); `lines()` parses them. */
function memorySink(): { sink: pino.DestinationStream; lines: () => LogLine[] } {
  const chunks: string[] = [];
  return {
    sink: { write: (chunk: string) => void chunks.push(chunk) },
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as LogLine),
  };
}

/** The gateway's root logger writing into memory: `lines()` gives every JSON line written so far. */
export function captureLog(level = 'info'): { logger: pino.Logger; lines: () => LogLine[] } {
  const { sink, lines } = memorySink();
  return { logger: createRootLogger(level, sink), lines };
}

/**
 * The whole log of a gateway started while it is on (give it `LOG_FORMAT: 'json'` and a
 * `LOG_LEVEL`): pino's stdout destination, which the logging module opens at start, is memory
 * instead, until `restore()`. One gateway per test file: nestjs-pino writes Nest's `Logger` lines
 * through the first app's logger of the process.
 */
export function captureGatewayLogs(): { lines: () => LogLine[]; text: () => string; restore: () => void } {
  const { sink, lines } = memorySink();
  const spy = jest.spyOn(pino, 'destination').mockReturnValue(sink as ReturnType<typeof pino.destination>);
  return {
    lines,
    text: () =>
      lines()
        .map((line) => JSON.stringify(line))
        .join('\n'),
    restore: () => spy.mockRestore(),
  };
}
