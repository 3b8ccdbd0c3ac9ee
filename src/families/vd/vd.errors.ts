import { ErrorDialect, NativeCodeTable, nativeCodeOf } from '../../platform/errors';

/** Family C native reasons (CONTRACT §3), from the upstream API's own table. */
const VD_REASONS: NativeCodeTable<string> = {
  byStatus: {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    409: 'Conflict',
    413: 'BadRequest',
    422: 'BadRequest',
    429: 'TooManyRequests',
    500: 'InternalServiceFailure',
    503: 'InternalServiceFailure',
  },
  modelNotFound: 'ModelUnavailable',
  resourceNotFound: 'TaskNotFound',
};

/** `{code: <HTTP status>, reason, message, metadata: {trace_id}}`. */
export const VD_ERRORS: ErrorDialect = {
  pathPrefix: '/vd/',
  nativeFields: (err, requestId) => {
    const native = err.options.native;
    return {
      code: err.status,
      reason: native ? String(native.code) : nativeCodeOf(err, VD_REASONS),
      message: native?.message ?? err.message,
      metadata: { trace_id: requestId },
    };
  },
};
