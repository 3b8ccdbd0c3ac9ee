import { ErrorDialect, NativeCodeTable } from '../../platform/errors';
import { ApiErrorResponses, ErrorCause } from '../../platform/http/openapi/error-responses';
import { nativeCodeAndMessage } from '../common/native-error';

/** vd native reasons, from the upstream API's own table. */
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
    const { code, message } = nativeCodeAndMessage(err, VD_REASONS, String);
    return { code: err.status, reason: code, message, metadata: { trace_id: requestId } };
  },
};

/** vd's documented error answers, with its native fields. */
export const VdErrorResponses = (...causes: ErrorCause[]): MethodDecorator & ClassDecorator =>
  ApiErrorResponses({ name: 'VdErrorAnswer', dialect: VD_ERRORS }, causes);
