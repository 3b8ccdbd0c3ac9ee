import type { Request, Response } from 'express';
import { ErrorDialect, gatewayErrorObject } from './error-dialect';
import { GatewayError } from './gateway-error';
import { discardBody, hasUnreadBody } from '../http/unread-body';

/**
 * Writes a GatewayError as the response: status, extra headers, the error object and the route family's native fields.
 */
export class ErrorWriter {
  constructor(private readonly dialects: readonly ErrorDialect[] = []) {}

  /** The full error body for a request path. */
  body(err: GatewayError, path: string, requestId: string): Record<string, unknown> {
    const dialect = this.dialects.find((d) => path.startsWith(d.pathPrefix));
    return { ...gatewayErrorObject(err), ...(dialect ? dialect.nativeFields(err, requestId) : {}) };
  }

  /**
   * Answers once the request's body is in: an error found before the body was read (no route, a
   * URL refused as it stands) waits the body out, bounded, so a client still sending reads the
   * answer rather than a reset connection.
   */
  write(req: Request, res: Response, err: GatewayError): void {
    if (!hasUnreadBody(req)) return this.send(req, res, err);
    discardBody(req)
      .then(() => {
        if (!res.headersSent && !res.destroyed) this.send(req, res, err);
      })
      // Nothing is left to answer with: the connection goes rather than the process.
      .catch(() => res.destroy());
  }

  private send(req: Request, res: Response, err: GatewayError): void {
    const requestId = String((req as Request & { id?: string }).id ?? '');
    for (const [name, value] of Object.entries(err.options.headers ?? {})) res.setHeader(name, value);
    res.status(err.status).json(this.body(err, req.path, requestId));
  }
}
