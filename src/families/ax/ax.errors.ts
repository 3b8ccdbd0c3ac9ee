import { ErrorDialect, NativeCodeTable, nativeCodeOf } from '../../platform/errors';

/** Family B native codes (CONTRACT §3), from the upstream API's own table. */
const AX_CODES: NativeCodeTable<string> = {
  byStatus: {
    400: 'InvalidParameter',
    401: 'InvalidApiKey',
    403: 'AccessDenied',
    409: 'Conflict',
    413: 'BadRequest.TooLarge',
    422: 'InvalidParameter',
    429: 'Throttling',
    500: 'InternalError',
    503: 'ServiceUnavailable',
  },
  modelNotFound: 'ModelNotFound',
  resourceNotFound: 'NotFound',
};

/** `{code, message, request_id}`; an upstream rejection keeps the upstream's own code and message. */
export const AX_ERRORS: ErrorDialect = {
  pathPrefix: '/ax/',
  nativeFields: (err, requestId) => {
    const native = err.options.native;
    return {
      code: native ? String(native.code) : nativeCodeOf(err, AX_CODES),
      message: native?.message ?? err.message,
      request_id: requestId,
    };
  },
};
