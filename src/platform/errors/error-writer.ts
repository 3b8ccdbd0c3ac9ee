import type { Request, Response } from 'express';
import { ErrorDialect, gatewayErrorObject } from './error-dialect';
import { GatewayError } from './gateway-error';

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

  write(req: Request, res: Response, err: GatewayError): void {
    const requestId = String((req as Request & { id?: string }).id ?? '');
    for (const [name, value] of Object.entries(err.options.headers ?? {})) res.setHeader(name, value);
    res.status(err.status).json(this.body(err, req.path, requestId));
  }
}
