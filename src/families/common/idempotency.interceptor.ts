import { CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors, applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { Response } from 'express';
import { Observable, from, of, throwError } from 'rxjs';
import { catchError, mergeMap } from 'rxjs/operators';
import { AuthenticatedRequest } from '../../core/accounts/guards/authenticated-request';
import { IdempotencyService } from '../../core/tasks/idempotency.service';
import { GatewayError } from '../../platform/errors';

const REPLAYED_HEADERS = ['deprecation', 'location'];

/** Replays the first successful response for a repeated `Idempotency-Key`; forgets failures. */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = req.header('idempotency-key');
    if (key === undefined) return next.handle();
    if (key.length === 0 || key.length > 255) {
      return throwError(() => GatewayError.invalid('Idempotency-Key must be 1 to 255 characters.', 'Idempotency-Key'));
    }
    const accountId = req.principal.account.id;
    const hash = IdempotencyService.fingerprint(req.method, req.path, req.body);
    return from(this.idempotency.begin(accountId, key, hash)).pipe(
      mergeMap((start) => {
        if (start.kind === 'replay') {
          for (const [name, value] of Object.entries(start.headers)) res.setHeader(name, value);
          res.setHeader('Idempotent-Replayed', 'true');
          res.status(start.status);
          return of(start.body);
        }
        return next.handle().pipe(
          mergeMap((body) => from(this.idempotency.complete(accountId, key, { status: res.statusCode, body, headers: pickHeaders(res) }).then(() => body))),
          catchError((error: unknown) => from(this.idempotency.abandon(accountId, key)).pipe(mergeMap(() => throwError(() => error)))),
        );
      }),
    );
  }
}

function pickHeaders(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

/** Marks a task-creating route: accepts `Idempotency-Key`. */
export function Idempotent() {
  return applyDecorators(
    ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Repeat-safe creation: same key and body replay the first response (24 h).' }),
    UseInterceptors(IdempotencyInterceptor),
  );
}
