import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isDatabaseUnavailable } from '../database/database-unavailable';
import { GatewayError } from './gateway-error';
import { ErrorWriter } from './error-writer';
import { GatewayErrorCode } from './error-codes';

const CODE_BY_STATUS: Record<number, GatewayErrorCode> = {
  400: 'invalid_request',
  401: 'invalid_api_key',
  403: 'permission_denied',
  404: 'not_found',
  405: 'invalid_request',
  413: 'request_too_large',
  429: 'rate_limit_exceeded',
  503: 'service_unavailable',
};

/** The one place errors become responses: every error, expected or not, leaves in the gateway shape. */
@Catch()
export class GatewayExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly writer: ErrorWriter = new ErrorWriter()) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (res.headersSent) return;
    this.writer.write(req, res, this.toGatewayError(exception, req));
  }

  private toGatewayError(exception: unknown, req: Request): GatewayError {
    if (exception instanceof GatewayError) return exception;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) return new GatewayError(404, 'not_found', `No route for ${req.method} ${req.path}.`);
      const code = CODE_BY_STATUS[status];
      if (code && status < 500) return new GatewayError(status, code, messageOf(exception));
    }
    if (isDatabaseUnavailable(exception)) {
      // Not a fault of this request: the client retries after Retry-After.
      this.logger.warn({ err: exception, req: { id: (req as Request & { id?: string }).id } }, 'database unavailable');
      return GatewayError.databaseUnavailable();
    }
    // Unexpected: log the detail for operators, show nothing internal to the caller.
    this.logger.error({ err: exception, req: { id: (req as Request & { id?: string }).id } }, 'unhandled error');
    return GatewayError.internal();
  }
}

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  return Array.isArray(message) ? String(message[0]) : typeof message === 'string' ? message : exception.message;
}
