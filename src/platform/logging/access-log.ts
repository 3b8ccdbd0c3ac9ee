import type { Request, Response } from 'express';
import type pino from 'pino';
import { maskUrl } from './url-mask';

type LoggedRequest = Request & { principal?: { account: { id: string } } };

const NOT_LOGGED = new Set(['/healthz', '/metrics']);

/**
 * One access line per request, written when the response has been sent (or the connection
 * closed): method, URL (credentials in its query or path masked: `maskUrl`), request id, account, route
 * pattern, status and latency. Nothing is allocated per request beyond the line itself; the
 * gateway's HTTP middleware calls `wants` when a request starts and `write` once at its end.
 */
export class AccessLog {
  constructor(private readonly logger: pino.Logger) {}

  /** False for health and metrics, and when the level is above info (then a request costs nothing here). */
  wants(req: Request): boolean {
    return this.logger.isLevelEnabled('info') && !NOT_LOGGED.has(req.originalUrl);
  }

  write(req: LoggedRequest, res: Response, elapsedNs: bigint): void {
    const status = res.statusCode;
    this.logger.info(
      {
        req: { method: req.method, url: maskUrl(req.originalUrl), id: req.id },
        accountId: req.principal?.account.id,
        route: (req.route as { path?: string } | undefined)?.path,
        res: { statusCode: status },
        responseTime: Math.round(Number(elapsedNs) / 1e6),
      },
      status >= 500 ? 'request errored' : res.writableFinished ? 'request completed' : 'request aborted',
    );
  }
}
