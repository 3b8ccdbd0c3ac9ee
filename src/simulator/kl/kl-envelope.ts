import { json, NativeErrors, SimAnswer } from '../http/sim-answer';
import { uuid } from '../ids';

/** kl wraps every answer, success or error, in `{code, message, request_id, data}`. */
export function klEnvelope(data: unknown): { code: number; message: string; request_id: string; data: unknown } {
  return { code: 0, message: 'SUCCEED', request_id: uuid(), data };
}

export function klOk(data: unknown): SimAnswer {
  return json(200, klEnvelope(data));
}

function klError(status: number, code: number, message: string): SimAnswer {
  return json(status, { code, message, request_id: uuid(), data: null });
}

export const KL_ERRORS: NativeErrors = {
  badRequest: (message) => klError(400, 1201, message),
  unauthorized: (message) => klError(401, 1000, message),
  notFound: (message) => klError(404, 1203, message),
  throttled: (message) => klError(429, 1302, message),
  internal: (message) => klError(500, 5000, message),
};
