import type { NextFunction, Request, Response } from 'express';
import type pino from 'pino';

type LoggedRequest = Request & { id?: string; principal?: { account: { id: string } } };

const NOT_LOGGED = new Set(['/healthz', '/metrics']);

/**
 * One access line per request, written when the response has been sent (or the connection
 * closed): method, URL (credential-like query values masked), request id, account, route
 * pattern, status and latency. Nothing is allocated per request beyond the line itself.
 */
export function accessLogMiddleware(logger: pino.Logger) {
  return (req: LoggedRequest, res: Response, next: NextFunction): void => {
    if (!logger.isLevelEnabled('info') || NOT_LOGGED.has(req.originalUrl)) return next();
    const started = Date.now();
    let written = false;
    const write = (): void => {
      if (written) return;
      written = true;
      const status = res.statusCode;
      logger.info(
        {
          req: { method: req.method, url: maskQuery(req.originalUrl), id: req.id },
          accountId: req.principal?.account.id,
          route: (req.route as { path?: string } | undefined)?.path,
          res: { statusCode: status },
          responseTime: Date.now() - started,
        },
        status >= 500 ? 'request errored' : res.writableFinished ? 'request completed' : 'request aborted',
      );
    };
    res.once('finish', write);
    res.once('close', write);
    next();
  };
}

export function maskQuery(url: string): string {
  return url.includes('?') ? url.replace(/([?&](?:key|api_key|token)=)[^&]+/gi, '$1[redacted]') : url;
}
