import { errorTypeFor as typeFor } from './error-codes';
import { GatewayError } from './gateway-error';

export type ApiFamily = 'kl' | 'ax' | 'vd';

/** Which family's native error fields a request path gets (CONTRACT §3). */
export function familyOfPath(path: string): ApiFamily | null {
  if (path.startsWith('/kl/')) return 'kl';
  if (path.startsWith('/ax/')) return 'ax';
  if (path.startsWith('/vd/')) return 'vd';
  return null;
}

interface NativeCodes {
  kl: number;
  ax: string;
  vd: string;
}

// Taken from the upstream APIs' own tables so their clients' error handling keeps working.
const BY_STATUS: Record<number, NativeCodes> = {
  400: { kl: 1201, ax: 'InvalidParameter', vd: 'BadRequest' },
  401: { kl: 1000, ax: 'InvalidApiKey', vd: 'Unauthorized' },
  403: { kl: 1103, ax: 'AccessDenied', vd: 'Forbidden' },
  409: { kl: 1201, ax: 'Conflict', vd: 'Conflict' },
  413: { kl: 1201, ax: 'BadRequest.TooLarge', vd: 'BadRequest' },
  422: { kl: 1201, ax: 'InvalidParameter', vd: 'BadRequest' },
  429: { kl: 1302, ax: 'Throttling', vd: 'TooManyRequests' },
  500: { kl: 5000, ax: 'InternalError', vd: 'InternalServiceFailure' },
  503: { kl: 5001, ax: 'ServiceUnavailable', vd: 'InternalServiceFailure' },
};
const MODEL_NOT_FOUND: NativeCodes = { kl: 1203, ax: 'ModelNotFound', vd: 'ModelUnavailable' };
const RESOURCE_NOT_FOUND: NativeCodes = { kl: 1203, ax: 'NotFound', vd: 'TaskNotFound' };

function nativeCodesFor(err: GatewayError): NativeCodes {
  if (err.status === 404) return err.code === 'model_not_found' ? MODEL_NOT_FOUND : RESOURCE_NOT_FOUND;
  return BY_STATUS[err.status] ?? (err.status >= 500 ? BY_STATUS[500] : BY_STATUS[400]);
}

/** Builds the full error body: the gateway error object plus the family's native fields. */
export function errorBody(err: GatewayError, family: ApiFamily | null, requestId: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    error: { message: err.message, type: typeFor(err.status), param: err.param, code: err.code },
  };
  if (!family) return body;
  const codes = nativeCodesFor(err);
  const native = err.options.native;
  const message = native?.message ?? err.message;
  switch (family) {
    case 'kl':
      return { ...body, code: native ? Number(native.code) || codes.kl : codes.kl, message, request_id: requestId, data: null };
    case 'ax':
      return { ...body, code: native ? String(native.code) : codes.ax, message, request_id: requestId };
    case 'vd':
      return {
        ...body,
        code: err.status,
        reason: native ? String(native.code) : codes.vd,
        message,
        metadata: { trace_id: requestId },
      };
  }
}
