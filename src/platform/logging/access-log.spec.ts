import { AccessLog } from './access-log';
import { captureLog } from '../../../test/support/log-capture';

function fakeExchange(url: string, writableFinished = true) {
  const res = { statusCode: 200, writableFinished };
  const req = {
    method: 'GET',
    originalUrl: url,
    id: 'req-1',
    principal: { account: { id: 'acct_1' } },
    route: { path: '/ax/api/v1/tasks/:task_id' },
  };
  return { req, res };
}

describe('access log', () => {
  it('writes one line with route, account, status, latency and masked query', () => {
    const { logger, lines } = captureLog();
    const { req, res } = fakeExchange('/ax/api/v1/tasks/t1?token=secret&x=1');
    new AccessLog(logger).write(req as never, res as never, 3_400_000n);
    const [line, ...rest] = lines();
    expect(rest).toHaveLength(0);
    expect(line).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/ax/api/v1/tasks/t1?token=[redacted]&x=1', id: 'req-1' },
      accountId: 'acct_1',
      route: '/ax/api/v1/tasks/:task_id',
      res: { statusCode: 200 },
      responseTime: 3,
    });
    expect(JSON.stringify(line)).not.toContain('secret');
  });

  it('says when the client went away before the answer, or the answer was an error', () => {
    const { logger, lines } = captureLog();
    const log = new AccessLog(logger);
    const aborted = fakeExchange('/vd/ent/v2/reference2video', false);
    log.write(aborted.req as never, aborted.res as never, 1n);
    const failed = fakeExchange('/vd/ent/v2/reference2video');
    failed.res.statusCode = 503;
    log.write(failed.req as never, failed.res as never, 1n);
    expect(lines().map((l) => l.msg)).toEqual(['request aborted', 'request errored']);
  });

  it('skips health and metrics, and everything when the level is above info', () => {
    const log = new AccessLog(captureLog().logger);
    expect(log.wants(fakeExchange('/ax/api/v1/tasks/t1').req as never)).toBe(true);
    expect(log.wants(fakeExchange('/healthz').req as never)).toBe(false);
    expect(log.wants(fakeExchange('/metrics').req as never)).toBe(false);
    expect(new AccessLog(captureLog('warn').logger).wants(fakeExchange('/ax/api/v1/tasks/t1').req as never)).toBe(
      false,
    );
  });
});
