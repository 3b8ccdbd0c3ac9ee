import { json, NativeErrors, SimAnswer } from '../http/sim-answer';
import { hexId } from '../ids';

function vdError(status: number, reason: string, message: string): SimAnswer {
  return json(status, { code: status, reason, message, metadata: { trace_id: hexId() } });
}

/** vd errors: `{code: <http status>, reason, message, metadata: {trace_id}}`. */
export const VD_ERRORS: NativeErrors = {
  badRequest: (message) => vdError(400, 'BadRequest', message),
  unauthorized: (message) => vdError(401, 'Unauthorized', message),
  notFound: (message) => vdError(404, 'TaskNotFound', message),
  throttled: (message) => vdError(429, 'TooManyRequests', message),
  internal: (message) => vdError(500, 'InternalServiceFailure', message),
};
