import { Type, applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptions, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorDialect, ErrorWriter, GatewayError } from '../../errors';

/** One way a route can fail: the error it throws (its answer is built from it) and when it happens. */
export interface ErrorCause {
  readonly name: string;
  readonly error: GatewayError;
  readonly when: string;
}

const cause = (name: string, error: GatewayError, when: string): ErrorCause => ({ name, error, when });

/** The request ID the examples carry (a real answer carries the request's own `X-Request-Id`). */
export const EXAMPLE_REQUEST_ID = '0f8e6d7c-2b1a-4c3d-9e8f-7a6b5c4d3e2f';

/** Failures shared by the routes of every face; a face or a family adds its own causes beside these. */
export const ERROR_CAUSES = {
  invalidJson: cause(
    'invalid_json',
    GatewayError.invalid(
      'The request body is not valid JSON: expected a value, found the end of the body at line 1, column 11 (character 11).',
    ),
    'The body is not JSON, or breaks a rule of the route (`param` names the field).',
  ),
  unauthorized: cause(
    'invalid_api_key',
    GatewayError.unauthorized('Missing API key: send Authorization: Bearer <API key>.'),
    'No API key, or one that is invalid, revoked or expired.',
  ),
  insufficientQuota: cause(
    'insufficient_quota',
    GatewayError.insufficientQuota(
      'The account balance cannot cover this request: available balance 1200, held for tasks in flight 5000, ' +
        'price of this request 8000 (price units). Top up the account, or wait for tasks in flight to finish and release their holds.',
    ),
    'The available balance cannot cover the estimated charge of the request.',
  ),
  taskNotFound: cause(
    'not_found',
    GatewayError.notFound('Task'),
    'No such task for this caller (another account’s tasks answer the same).',
  ),
  idempotencyInProgress: cause(
    'idempotency_in_progress',
    new GatewayError(
      409,
      'idempotency_in_progress',
      'A request with this Idempotency-Key is still being processed.',
      'Idempotency-Key',
    ),
    'A request with the same Idempotency-Key has not answered yet (Retry-After: 1).',
  ),
  tooLarge: cause(
    'request_too_large',
    new GatewayError(413, 'request_too_large', 'The request body exceeds 67108864 bytes.'),
    'The body is over the size limit.',
  ),
  idempotencyMismatch: cause(
    'idempotency_mismatch',
    new GatewayError(
      422,
      'idempotency_mismatch',
      'This Idempotency-Key was used with a different request body.',
      'Idempotency-Key',
    ),
    'The Idempotency-Key was used before with another body.',
  ),
  rateLimited: cause(
    'rate_limit_exceeded',
    GatewayError.rateLimited('Rate limit of 60 requests per minute exceeded; retry after back-off.', 30),
    'Over the account’s request rate, or (on creation) its cap of tasks in flight; `Retry-After` says when to retry.',
  ),
  internal: cause('internal_error', GatewayError.internal(), 'An unexpected fault; nothing internal is shown.'),
  unavailable: cause(
    'service_unavailable',
    GatewayError.unavailable('No upstream channel can take a task of this model now.'),
    'No upstream channel can take the request now, or the upstream did not answer.',
  ),
} satisfies Record<string, ErrorCause>;

/** 403 and 404 of a route that takes a model, for an example model of its family and the field naming it. */
export function modelErrors(model: string, param: string): ErrorCause[] {
  return [
    cause(
      'permission_denied',
      GatewayError.forbidden(`This API key may not use the model '${model}'.`, param),
      'The account has the model but not for this capability, or this key may not use it.',
    ),
    cause(
      'model_not_found',
      new GatewayError(
        404,
        'model_not_found',
        `${GatewayError.modelNotFound(`${model}-x`, param).message} Did you mean '${model}'?`,
        param,
      ),
      'The model does not exist, is not enabled for this account, or is served by another route (the message says which).',
    ),
  ];
}

/** What every client route can answer: auth, rate limit, faults. */
export const CLIENT_ROUTE_ERRORS: readonly ErrorCause[] = [
  ERROR_CAUSES.unauthorized,
  ERROR_CAUSES.rateLimited,
  ERROR_CAUSES.internal,
];

/** A task's cancel: the task, the upstream's refusal with its reason, an upstream that did not answer. */
export const TASK_CANCEL_ERRORS: readonly ErrorCause[] = [
  ERROR_CAUSES.taskNotFound,
  cause(
    'cannot_cancel',
    new GatewayError(
      409,
      'cannot_cancel',
      'The upstream cannot cancel the task in its current state: task state is scheduled, can not cancel',
    ),
    'The task cannot be cancelled (the message says why): its upstream offers no cancel, it is past the state its ' +
      'upstream cancels in, or it already ended otherwise. Nothing was changed; the task goes on.',
  ),
  cause(
    'service_unavailable',
    GatewayError.unavailable('The upstream could not be reached to cancel the task; nothing was changed.'),
    'The upstream did not answer the cancel; nothing was changed, a retry may work.',
  ),
];

/** A task-creating POST: the body's rules, the model, money, idempotency, the upstream. */
export function taskCreateErrors(model: string, param: string): ErrorCause[] {
  return [
    ERROR_CAUSES.invalidJson,
    ...modelErrors(model, param),
    ERROR_CAUSES.insufficientQuota,
    ERROR_CAUSES.idempotencyInProgress,
    ERROR_CAUSES.tooLarge,
    ERROR_CAUSES.idempotencyMismatch,
    ERROR_CAUSES.unavailable,
  ];
}

/**
 * 403 of a route that names no model (a read, a list): the key has no model enabled for the
 * route's capability, in its family when the route belongs to one.
 */
export function noModelEnabled(capability: string, family?: string): ErrorCause {
  return cause(
    'permission_denied',
    GatewayError.forbidden(`This key has no model enabled for ${capability}${family ? ` in family ${family}` : ''}.`),
    'The account or this key has no model enabled for this route.',
  );
}

/** A media file in the answer, whole (200) or a byte range of it (206). */
export const MEDIA_CONTENT = {
  'video/mp4': { schema: { type: 'string', format: 'binary' } },
  'image/jpeg': { schema: { type: 'string', format: 'binary' } },
};

/** A dialect and the name its answers have among the document's schemas. */
export interface NamedDialect {
  readonly name: string;
  readonly dialect: ErrorDialect;
}

/** The schema of the gateway error object, the same in every dialect. */
const ERROR_OBJECT = 'ErrorObject';
const models = new Map<string, Type<unknown>>();

/**
 * A schema class for an answer, described from an example of it: every field is always present;
 * `param` is a string or null, and a field that is null on every error (kl's `data`) is
 * documented as such. One class per name, so that the document lists each shape once.
 */
function modelOf(name: string, example: Record<string, unknown>): Type<unknown> {
  const known = models.get(name);
  if (known) return known;
  const model = { [name]: class {} }[name];
  for (const [key, value] of Object.entries(example)) {
    const property = (): ApiPropertyOptions => {
      if (key === 'param') return { type: String, nullable: true, description: 'The field at fault, if one is' };
      if (value === null)
        return { type: 'object', properties: {}, nullable: true, description: 'Always null on an error' };
      if (typeof value === 'object') {
        const nested = key === 'error' ? ERROR_OBJECT : `${name}${key[0].toUpperCase()}${key.slice(1)}`;
        return { type: () => modelOf(nested, value as Record<string, unknown>) };
      }
      if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
      return { type: typeof value as 'string' | 'boolean' };
    };
    ApiProperty(property())(model.prototype, key);
  }
  models.set(name, model);
  return model;
}

/**
 * The documented error answers of a route, each with an example the gateway's own error writer
 * builds (so it is the body the route really sends), in `dialect` (none: the gateway error object
 * alone). Causes that share a status become one response with several examples. Works on a
 * controller (every route) or on one handler.
 */
export function ApiErrorResponses(
  named: NamedDialect | null,
  causes: readonly ErrorCause[],
): MethodDecorator & ClassDecorator {
  const dialect = named?.dialect;
  const writer = new ErrorWriter(dialect ? [dialect] : []);
  const body = (c: ErrorCause) => writer.body(c.error, dialect?.pathPrefix ?? '/', EXAMPLE_REQUEST_ID);
  const byStatus = new Map<number, ErrorCause[]>();
  for (const c of causes) byStatus.set(c.error.status, [...(byStatus.get(c.error.status) ?? []), c]);
  const model = causes.length ? modelOf(named?.name ?? 'ErrorAnswer', body(causes[0])) : undefined;
  return applyDecorators(
    ...(model ? [ApiExtraModels(model)] : []),
    ...[...byStatus].map(([status, group]) => {
      const headers = Object.keys(Object.assign({}, ...group.map((c) => c.error.options.headers ?? {})));
      return ApiResponse({
        status,
        description: group.map((c) => c.when).join(' '),
        ...(headers.length
          ? { headers: Object.fromEntries(headers.map((h) => [h, { schema: { type: 'string' } }])) }
          : {}),
        content: {
          'application/json': {
            schema: { $ref: getSchemaPath(model!) },
            examples: Object.fromEntries(group.map((c) => [c.name, { summary: c.error.code, value: body(c) }])),
          },
        },
      });
    }),
  );
}
