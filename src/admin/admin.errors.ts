import { GatewayError } from '../platform/errors';
import { ApiErrorResponses, ERROR_CAUSES, ErrorCause } from '../platform/http/openapi/error-responses';

/** The admin API's documented error answers: the gateway error object alone. */
export const AdminErrorResponses = (...causes: ErrorCause[]): MethodDecorator & ClassDecorator =>
  ApiErrorResponses(null, causes);

const notFound = (what: string): ErrorCause => ({
  name: 'not_found',
  error: GatewayError.notFound(what),
  when: `No such ${what.toLowerCase()}.`,
});

/** The failures of the admin routes. */
export const ADMIN_ERROR_CAUSES = {
  invalidBody: {
    name: 'invalid_request',
    error: GatewayError.invalid("Unknown field 'nmae'.", 'nmae'),
    when: 'The body is not JSON or breaks a rule of the route (`param` names the field).',
  },
  invalidQuery: {
    name: 'invalid_query',
    error: GatewayError.invalid('cursor is not one this API returned.', 'cursor'),
    when: 'A query parameter breaks a rule of the route (`param` names it).',
  },
  unknownQuery: {
    name: 'unknown_query_parameter',
    error: GatewayError.invalid("Unknown query parameter 'family': this route takes none.", 'family'),
    when: 'The route takes no query parameters and one was sent (`param` names it).',
  },
  invalidFilter: {
    name: 'unknown_filter_value',
    error: GatewayError.invalid("model 'vdq-3' is not a model of the catalogue.", 'model'),
    when: 'A `family` or `model` filter names none the gateway serves (`param` names it).',
  },
  invalidPeriod: {
    name: 'invalid_query',
    error: GatewayError.invalid('to must not be earlier than from.', 'to'),
    when: 'A query parameter breaks a rule of the route (`param` names it).',
  },
  taskStateConflict: {
    name: 'task_state_conflict',
    error: new GatewayError(409, 'invalid_request', 'This task has no callback URL: there is nothing to deliver.'),
    when: "The task's state does not allow the action (the message says why); nothing changed.",
  },
  accountNotFound: notFound('Account'),
  keyNotFound: notFound('API key'),
  taskNotFound: notFound('Task'),
  channelNotFound: notFound('Channel'),
  operatorNotFound: notFound('Operator'),
} satisfies Record<string, ErrorCause>;

/** What every admin route can answer: the token, the failed-authentication throttle, faults. */
export const ADMIN_ROUTE_ERRORS: readonly ErrorCause[] = [
  {
    name: 'invalid_api_key',
    error: GatewayError.unauthorized('Missing or invalid admin token.'),
    when: 'No admin token, or a wrong one.',
  },
  {
    name: 'rate_limit_exceeded',
    error: GatewayError.rateLimited('Too many failed admin authentications; retry later.', 60),
    when: 'This address failed to authenticate too often; `Retry-After` says when to retry.',
  },
  {
    name: 'permission_denied',
    error: GatewayError.forbidden("This needs the 'admin' role; your role is 'viewer'."),
    when: "The caller's operator role is weaker than the one the route (or a field of its body) needs; the message names it.",
  },
  // Every admin route refuses a query parameter it does not take; a route's own 400s are documented beside it.
  ADMIN_ERROR_CAUSES.unknownQuery,
  ERROR_CAUSES.internal,
];

/** A route with a JSON body (and no query parameters). */
export const ADMIN_BODY_ERRORS: readonly ErrorCause[] = [
  ADMIN_ERROR_CAUSES.invalidBody,
  ADMIN_ERROR_CAUSES.unknownQuery,
  ERROR_CAUSES.tooLarge,
];
