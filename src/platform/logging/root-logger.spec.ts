import { Writable } from 'stream';
import { createLoggers, createRootLogger, resolveLogFormat } from './logging.module';
import { registerSecretPath } from './url-mask';

function sink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

describe('root logger', () => {
  it('is human-readable on a terminal and JSON otherwise, unless LOG_FORMAT says which', () => {
    expect(resolveLogFormat('auto', true)).toBe('pretty');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });

  it('logs an error by type, code and message: never its stack trace', () => {
    const { lines, stream } = sink();
    const logger = createRootLogger('info', stream);
    const error = Object.assign(new RangeError(`Maximum call stack size exceeded ${'x'.repeat(2000)}`), {
      code: 'E_DEEP',
    });
    logger.error({ err: error, context: 'Errors' }, 'unhandled error');
    logger.error(new TypeError('bare error'));
    const [first, second] = lines.map((l) => JSON.parse(l));
    expect(first.err).toEqual({
      type: 'RangeError',
      code: 'E_DEEP',
      message: expect.stringMatching(/^Maximum call stack size exceeded x+$/),
    });
    expect(first.err.message.length).toBe(500);
    expect(second.err).toEqual({ type: 'TypeError', message: 'bare error' });
    expect(lines.join('\n')).not.toMatch(/\n\s+at |\.ts:\d+/);
  });

  it('masks URL credentials an error message quotes', () => {
    registerSecretPath('/results/');
    const { lines, stream } = sink();
    createRootLogger('info', stream).error(
      { err: new Error('GET http://gw.example/results/dGFzaw.c2ln?token=abc failed') },
      'unhandled error',
    );
    expect(JSON.parse(lines[0]).err.message).toBe('GET http://gw.example/results/[redacted]?token=[redacted] failed');
  });

  it('writes Nest start-up chatter (modules, routes) at debug, everything else as asked', () => {
    const { lines, stream } = sink();
    const logger = createRootLogger('info', stream);
    logger.info({ context: 'InstanceLoader' }, 'AppModule dependencies initialized');
    logger.info({ context: 'RouterExplorer' }, 'Mapped {/healthz, GET} route');
    logger.info({ context: 'NestApplication' }, 'Nest application successfully started');
    logger.info({ context: 'Callbacks' }, 'worker started');
    logger.warn({ context: 'RoutesResolver' }, 'a warning stays a warning');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['worker started', 'a warning stays a warning']);

    const verbose = sink();
    createRootLogger('debug', verbose.stream).info({ context: 'InstanceLoader' }, 'AppModule dependencies initialized');
    expect(JSON.parse(verbose.lines[0])).toMatchObject({
      level: 20,
      context: 'InstanceLoader',
      msg: 'AppModule dependencies initialized',
    });
  });

  it('pretty: one readable line per entry, access lines as method, path, status and time, secrets still redacted', () => {
    const { lines, stream } = sink();
    const logger = createRootLogger('info', stream, 'pretty');
    logger.info(
      {
        req: { method: 'GET', url: '/ax/api/v1/tasks/task_1', id: 'req-1' },
        res: { statusCode: 200 },
        responseTime: 3,
        route: '/ax/api/v1/tasks/:id',
      },
      'request completed',
    );
    logger.warn(
      { context: 'Callbacks', taskId: 'task_9', reason: 'HTTP 500', channel: { apiKey: 'vgw_secret' } },
      'client callback attempt failed',
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/ax\/api\/v1\/tasks\/task_1 -> 200 \(3 ms\) request completed \[req-1\]$/,
    );
    expect(lines[1]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: \[Callbacks\] client callback attempt failed \{.*"taskId":"task_9".*"reason":"HTTP 500".*\}$/,
    );
    expect(lines.join('\n')).not.toContain('vgw_secret');
    expect(lines.join('\n')).not.toMatch(/^\{/m);
  });

  it('access lines: the same line as the root logger would write, without its per-line work', () => {
    const { lines, stream } = sink();
    const { root, access } = createLoggers('info', stream);
    const line = {
      req: { method: 'GET', url: '/x', id: 'req-7' },
      route: '/x',
      res: { statusCode: 200 },
      responseTime: 1,
    };
    root.info(line, 'request completed');
    access.info(line, 'request completed');
    const [fromRoot, fromAccess] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect({ ...fromAccess, time: 0 }).toEqual({ ...fromRoot, time: 0 });
    expect(Object.keys(fromAccess)).toEqual(Object.keys(fromRoot));
    // The root logger still redacts.
    root.info({ channel: { apiKey: 'vgw_secret' } }, 'upstream');
    expect(lines[2]).not.toContain('vgw_secret');
    expect(createLoggers('warn', stream).access.isLevelEnabled('info')).toBe(false);
  });
});
