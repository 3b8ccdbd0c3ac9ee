import { CallHandler, ExecutionContext, HttpStatus, Injectable, Logger, NestInterceptor, UseInterceptors, applyDecorators } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { ApiHeader } from '@nestjs/swagger';
import type { Response } from 'express';
import { Observable, from, of, throwError } from 'rxjs';
import { catchError, mergeMap } from 'rxjs/operators';
import { AuthenticatedRequest } from '../../core/accounts/guards/authenticated-request';
import { IdempotencyKeyTakenError, IdempotencyService, IdempotencyStart } from '../../core/tasks/idempotency.service';
import { TaskFamilies } from '../../core/tasks/task-families';
import { GatewayError } from '../../platform/errors';
import { requestContext } from '../../platform/http/request-context';

const REPLAYED_HEADERS = ['deprecation', 'location'];

/**
 * `Idempotency-Key` on a task-creating route (CONTRACT §7): replays the stored answer, or rebuilds
 * the created answer from the task the key is tied to (the engine ties it in the creation
 * transaction), or lets the request run. Failures are never remembered.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly families: TaskFamilies,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = req.header('idempotency-key');
    if (key === undefined) return next.handle();
    if (key.length === 0 || key.length > 255) {
      return throwError(() => GatewayError.invalid('Idempotency-Key must be 1 to 255 characters.', 'Idempotency-Key'));
    }
    const accountId = req.principal.account.id;
    const requestHash = IdempotencyService.fingerprint(req.method, req.path, req.body);
    const createdStatus = (Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined) ?? HttpStatus.CREATED;

    /** Answers without running the handler: the stored answer, or the created answer rebuilt from the task. */
    const answer = (start: Exclude<IdempotencyStart, { kind: 'proceed' }>): Observable<unknown> => {
      if (start.kind === 'task') {
        const created = this.families.presentCreated(start.task);
        const headers = { ...(created.headers ?? {}) };
        // Stored now, so later retries replay this answer (best effort: the task answers otherwise).
        void this.store(accountId, key, { status: createdStatus, body: created.body, headers });
        start = { kind: 'replay', status: createdStatus, body: created.body, headers };
      }
      for (const [name, value] of Object.entries(start.headers)) res.setHeader(name, value);
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(start.status);
      return of(start.body);
    };

    return from(this.idempotency.begin(accountId, key, requestHash)).pipe(
      mergeMap((start) => {
        if (start.kind !== 'proceed') return answer(start);
        const ctx = requestContext.current();
        if (ctx) ctx.idempotency = { key, requestHash };
        return next.handle().pipe(
          mergeMap((body) => from(this.store(accountId, key, { status: res.statusCode, body, headers: pickHeaders(res) }).then(() => body))),
          catchError((error: unknown) => {
            if (!(error instanceof IdempotencyKeyTakenError)) return throwError(() => error);
            // Another request with the key created its task first: answer as a retry would be answered.
            return from(this.idempotency.begin(accountId, key, requestHash)).pipe(mergeMap((again) => (again.kind === 'proceed' ? throwError(() => inProgress()) : answer(again))));
          }),
        );
      }),
    );
  }

  /** Storing the answer may fail after the task exists: the caller still gets it, and a retry is answered from the task. */
  private async store(accountId: string, key: string, response: { status: number; body: unknown; headers: Record<string, string> }): Promise<void> {
    try {
      await this.idempotency.complete(accountId, key, response);
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not store the idempotent answer; a retry is answered from the task');
    }
  }
}

function inProgress(): GatewayError {
  return new GatewayError(409, 'idempotency_in_progress', 'A request with this Idempotency-Key is still being processed.', 'Idempotency-Key');
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
