import type { Express, NextFunction, Request, Response } from 'express';
import { ErrorWriter, GatewayError } from '../errors';
import { AccessLog } from '../logging/access-log';
import { HttpMetrics } from '../metrics/http-metrics';
import { urlHasNul } from './input-shape';
import { CONTEXT, ContextResponse } from './request-context';
import { fastPathsOn } from '../config/fast-paths';
import { beforeHeaders, beforeHeadersOfEveryResponse } from '../internals/express-internals';
import { openRequestContext, writeServerTiming } from './request-id';

/** Whether the access line of a response is still to be written. */
const ACCESS_PENDING = Symbol('gateway.accessPending');
type Exchange = ContextResponse & Response & { [ACCESS_PENDING]: boolean };

export interface GatewayHttpParts {
  errors: ErrorWriter;
  metrics: HttpMetrics;
  accessLog: AccessLog;
}

/**
 * The gateway's one Express middleware, in this order: request ID and request context (with
 * `X-Request-Id`, and `Server-Timing` when the headers go out), metrics and the access line when
 * the response is over, then a URL with a NUL character, or an HTTP/1.1 request without `Host`,
 * refused (400, every method). One layer instead of four (three of ours and Nest's `forRoutes('*')`
 * for the access log), so Express walks fewer layers; the end-of-response hooks are two functions
 * made once here (the state they need is on the response), not closures made for every request.
 * The body is read later, once the route and its caller are known (`RequestBodyGuard`).
 */
export function gatewayHttpMiddleware(app: Express, { errors, metrics, accessLog }: GatewayHttpParts) {
  // Server-Timing as the headers go out: from the app's response prototype, or (fast paths off) per response.
  const fast = fastPathsOn('server-timing');
  if (fast) beforeHeadersOfEveryResponse(app, writeServerTiming);

  function onFinish(this: Exchange): void {
    const elapsedNs = process.hrtime.bigint() - (this[CONTEXT] as { startedAt: bigint }).startedAt;
    metrics.record(this.req, this.statusCode, elapsedNs);
    if (this[ACCESS_PENDING]) {
      this[ACCESS_PENDING] = false;
      accessLog.write(this.req, this, elapsedNs);
    }
  }

  /** The connection closed first: the client went away before the answer was sent. */
  function onClose(this: Exchange): void {
    if (!this[ACCESS_PENDING]) return;
    this[ACCESS_PENDING] = false;
    accessLog.write(this.req, this, process.hrtime.bigint() - (this[CONTEXT] as { startedAt: bigint }).startedAt);
  }

  return function gatewayHttp(req: Request, res: Response, next: NextFunction): void {
    openRequestContext(req, res);
    if (!fast) beforeHeaders(res, writeServerTiming);
    const exchange = res as Exchange;
    exchange.on('finish', onFinish);
    exchange[ACCESS_PENDING] = accessLog.wants(req);
    if (exchange[ACCESS_PENDING]) exchange.on('close', onClose);
    if (urlHasNul(req.originalUrl))
      return errors.write(req, res, GatewayError.invalid('The URL must not contain NUL characters.'));
    // HTTP/1.1 requires it (the server is told not to refuse it itself, so the refusal carries the error object).
    if (req.headers.host === undefined && req.httpVersionMinor === 1 && req.httpVersionMajor === 1) {
      res.setHeader('Connection', 'close');
      return errors.write(req, res, GatewayError.invalid('An HTTP/1.1 request must carry a Host header.'));
    }
    next();
  };
}
