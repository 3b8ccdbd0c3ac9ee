import { EventEmitter } from 'events';
import pino from 'pino';
import { Writable } from 'stream';
import { requestContext } from '../http/request-context';
import { accessLogMiddleware } from './access-log.middleware';
import { createRootLogger } from './logging.module';

function capture(level = 'info'): { logger: pino.Logger; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const logger = createRootLogger(level, sink);
  return {
    logger,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
  };
}

function fakeExchange(url: string) {
  const res = Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: false });
  const req = { method: 'GET', originalUrl: url, id: 'req-1', principal: { account: { id: 'acct_1' } }, route: { path: '/ax/api/v1/tasks/:task_id' } };
  return { req, res };
}

describe('access log', () => {
  it('writes one line per request at the end, with route, account, status and masked query', () => {
    const { logger, lines } = capture();
    const { req, res } = fakeExchange('/ax/api/v1/tasks/t1?token=secret&x=1');
    const next = jest.fn();
    accessLogMiddleware(logger)(req as never, res as never, next);
    expect(next).toHaveBeenCalled();
    expect(lines()).toHaveLength(0);
    res.writableFinished = true;
    res.emit('finish');
    res.emit('close');
    const [line, ...rest] = lines();
    expect(rest).toHaveLength(0);
    expect(line).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/ax/api/v1/tasks/t1?token=[redacted]&x=1', id: 'req-1' },
      accountId: 'acct_1',
      route: '/ax/api/v1/tasks/:task_id',
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(JSON.stringify(line)).not.toContain('secret');
  });

  it('says when the client went away before the answer, and skips health and metrics', () => {
    const { logger, lines } = capture();
    const aborted = fakeExchange('/vd/ent/v2/reference2video');
    accessLogMiddleware(logger)(aborted.req as never, aborted.res as never, () => undefined);
    aborted.res.emit('close');
    const health = fakeExchange('/healthz');
    accessLogMiddleware(logger)(health.req as never, health.res as never, () => undefined);
    health.res.emit('finish');
    expect(lines().map((l) => l.msg)).toEqual(['request aborted']);
  });

  it('costs nothing when the level is above info', () => {
    const { logger, lines } = capture('warn');
    const { req, res } = fakeExchange('/ax/api/v1/tasks/t1');
    accessLogMiddleware(logger)(req as never, res as never, () => undefined);
    expect(res.listenerCount('finish')).toBe(0);
    res.emit('finish');
    expect(lines()).toHaveLength(0);
  });

  it('stamps other lines written while a request is served with its request id', () => {
    const { logger, lines } = capture();
    requestContext.run({ requestId: 'req-42', startedAt: process.hrtime.bigint() }, () => logger.warn({ taskId: 't' }, 'inside'));
    logger.warn('outside');
    const [inside, outside] = lines();
    expect(inside).toMatchObject({ msg: 'inside', taskId: 't', req: { id: 'req-42' } });
    expect(outside.req).toBeUndefined();
  });
});
