import { json, NativeErrors, SimAnswer } from '../http/sim-answer';
import { uuid } from '../ids';

export function axError(status: number, code: string, message: string): SimAnswer {
  return json(status, { request_id: uuid(), code, message });
}

/** ax errors: `{request_id, code, message}` with a word code. */
export const AX_ERRORS: NativeErrors = {
  badRequest: (message) => axError(400, 'InvalidParameter', message),
  unauthorized: (message) => axError(401, 'InvalidApiKey', message),
  notFound: (message) => axError(404, 'NotFound', message),
  throttled: (message) => axError(429, 'Throttling', message),
  internal: (message) => axError(500, 'InternalError', message),
};
