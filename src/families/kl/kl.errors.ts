import { ErrorDialect, NativeCodeTable, nativeCodeOf } from '../../platform/errors';

/** Family A envelope codes (CONTRACT §3), from the upstream API's own table. */
const KL_CODES: NativeCodeTable<number> = {
  byStatus: { 400: 1201, 401: 1000, 403: 1103, 409: 1201, 413: 1201, 422: 1201, 429: 1302, 500: 5000, 503: 5001 },
  modelNotFound: 1203,
  resourceNotFound: 1203,
};

/** The envelope `{code, message, request_id, data: null}` with a non-zero integer code. */
export const KL_ERRORS: ErrorDialect = {
  pathPrefix: '/kl/',
  nativeFields: (err, requestId) => {
    const native = err.options.native;
    const code = native ? Number(native.code) || nativeCodeOf(err, KL_CODES) : nativeCodeOf(err, KL_CODES);
    return { code, message: native?.message ?? err.message, request_id: requestId, data: null };
  },
};
