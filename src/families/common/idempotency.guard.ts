import {
  CanActivate,
  ExecutionContext,
  HttpStatus,
  Injectable,
  Logger,
  UseGuards,
  applyDecorators,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { ApiHeader } from '@nestjs/swagger';
import type { Response } from 'express';
import { createHash } from 'node:crypto';
import { AuthenticatedRequest } from '../../core/accounts/guards/authenticated-request';
import {
  IdempotencyKeyTakenError,
  IdempotencyService,
  IdempotencyStart,
  idempotencyInProgress,
} from '../../core/tasks/idempotency.service';
import { TaskFamilies } from '../../core/tasks/task-families';
import { GatewayError } from '../../platform/errors';
import { takesRequestContext } from '../../platform/http/ctx.decorator';
import { contextOf, RequestContext } from '../../platform/http/request-context';

const REPLAYED_HEADERS = ['deprecation', 'location'];

/** A request's `Idempotency-Key`, handed from the guard to the route handler on the request's context. */
interface KeyedCall {
  guard: IdempotencyGuard;
  req: AuthenticatedRequest;
  res: Response;
  key: string;
  createdStatus: number;
}
const KEYED_CALL = Symbol('idempotency.keyedCall');
type KeyedContext = RequestContext & { [KEYED_CALL]?: KeyedCall };

/**
 * `Idempotency-Key` on a task-creating route: replays the stored answer, or rebuilds the created
 * answer from the task the key is tied to (the engine ties it in the creation transaction), or
 * lets the request run. Failures are never remembered.
 *
 * A guard and a wrapped handler rather than a Nest interceptor: an interceptor puts every create
 * through rxjs and two `AsyncResource.bind`s, key or not. Here a create without the header costs
 * one header read; with it, the work starts when the handler is called: after all guards (this
 * one runs first, before the API key is known) and after the body pipes ran the family's rules,
 * so a bad body is refused without a lookup and never meets a stored answer.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly families: TaskFamilies,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const req = http.getRequest<AuthenticatedRequest>();
    const key = req.headers['idempotency-key'];
    if (key === undefined) return true;
    const ctx = contextOf(req) as KeyedContext;
    const createdStatus =
      (Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined) ?? HttpStatus.CREATED;
    ctx[KEYED_CALL] = { guard: this, req, res: http.getResponse<Response>(), key: String(key), createdStatus };
    return true;
  }

  /** Runs a keyed create: answers from the key when it can, otherwise runs `handle` and stores its answer. */
  async run(call: KeyedCall, handle: () => unknown): Promise<unknown> {
    const { req, res, key } = call;
    if (key.length === 0 || key.length > 255)
      throw GatewayError.invalid('Idempotency-Key must be 1 to 255 characters.', 'Idempotency-Key');
    const accountId = req.principal.account.id;
    const request = IdempotencyService.fingerprint(req.method, req.path, keyedBody(req));
    const start = await this.idempotency.begin(accountId, key, request);
    if (start.kind !== 'proceed') return this.answer(call, accountId, start);
    contextOf(req).idempotency = { key, requestHash: request.hash };
    let body: unknown;
    try {
      body = await handle();
    } catch (error) {
      if (!(error instanceof IdempotencyKeyTakenError)) throw error;
      // Another request with the key created its task first: answer as a retry would be answered.
      const again = await this.idempotency.begin(accountId, key, request);
      if (again.kind === 'proceed') throw idempotencyInProgress();
      return this.answer(call, accountId, again);
    }
    await this.store(accountId, key, { status: res.statusCode, body, headers: pickHeaders(res) });
    return body;
  }

  /** Answers without running the handler: the stored answer, or the created answer rebuilt from the task. */
  private answer(
    { req, res, key, createdStatus }: KeyedCall,
    accountId: string,
    start: Exclude<IdempotencyStart, { kind: 'proceed' }>,
  ): unknown {
    if (start.kind === 'task') {
      const created = this.families.presentCreated(start.task, contextOf(req).requestId);
      const headers = { ...(created.headers ?? {}) };
      // Stored now, so later retries replay this answer (best effort: the task answers otherwise).
      void this.store(accountId, key, { status: createdStatus, body: created.body, headers });
      start = { kind: 'replay', status: createdStatus, body: created.body, headers };
    }
    for (const [name, value] of Object.entries(start.headers)) res.setHeader(name, value);
    res.setHeader('Idempotent-Replayed', 'true');
    res.status(start.status);
    return start.body;
  }

  /** Storing the answer may fail after the task exists: the caller still gets it, and a retry is answered from the task. */
  private async store(
    accountId: string,
    key: string,
    response: { status: number; body: unknown; headers: Record<string, string> },
  ): Promise<void> {
    try {
      await this.idempotency.complete(accountId, key, response);
    } catch (error) {
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'could not store the idempotent answer; a retry is answered from the task',
      );
    }
  }
}

/** A file a multipart create uploaded, as multer leaves it on the request. */
interface UploadedFile {
  mimetype: string;
  buffer: Buffer;
}

/**
 * What the key is tied to: the body, and on a multipart create each uploaded file's declared type
 * and digest (a different image is a different request, though the form's fields are the same).
 */
function keyedBody(req: AuthenticatedRequest): unknown {
  const files = (req as { files?: Record<string, UploadedFile[]> }).files;
  if (!files || Object.keys(files).length === 0) return req.body;
  const uploads = Object.fromEntries(
    Object.entries(files).map(([field, list]) => [
      field,
      list.map((file) => ({
        type: file.mimetype,
        sha256: createHash('sha256').update(file.buffer).digest('base64url'),
      })),
    ]),
  );
  return { body: req.body, uploads };
}

function pickHeaders(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

/**
 * Wraps the route handler: with a keyed call on the request context it receives (the guard put it
 * there) the guard runs it, otherwise the handler runs as it is. The handler's metadata (routes,
 * Swagger) moves to the wrapper, which Nest then sees as the handler. The handler must take
 * `@Ctx()` (checked here, when the class is defined), or a key would go unseen.
 */
function answersIdempotently(target: object, key: string | symbol, descriptor: PropertyDescriptor): void {
  if (!takesRequestContext(target, key))
    throw new Error(`@Idempotent() handler ${target.constructor.name}.${String(key)} must take @Ctx()`);
  const handler = descriptor.value as (...args: unknown[]) => unknown;
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    let call: KeyedCall | undefined;
    for (const arg of args)
      if (typeof arg === 'object' && arg !== null && KEYED_CALL in arg) call = (arg as KeyedContext)[KEYED_CALL];
    if (call === undefined) return handler.apply(this, args);
    return call.guard.run(call, () => handler.apply(this, args));
  };
  for (const key of Reflect.getOwnMetadataKeys(handler))
    Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, handler), wrapped);
  Object.defineProperty(wrapped, 'name', { value: handler.name });
  descriptor.value = wrapped;
}

/** Marks a task-creating route: accepts `Idempotency-Key`. */
export function Idempotent() {
  return applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: 'Repeat-safe creation: same key and body replay the first response (24 h).',
    }),
    UseGuards(IdempotencyGuard),
    // Last: it carries the metadata the decorators above put on the handler.
    answersIdempotently,
  );
}
