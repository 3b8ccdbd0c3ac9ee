import { ErrorDialect, NativeCodeTable } from '../../platform/errors';
import { ApiErrorResponses, ErrorCause } from '../../platform/http/openapi/error-responses';
import { nativeCodeAndMessage } from '../common/native-error';

/** ax native codes, from the upstream API's own table. */
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
  nativeFields: (err, requestId) => ({ ...nativeCodeAndMessage(err, AX_CODES, String), request_id: requestId }),
};

/** ax's documented error answers, with its native fields. */
export const AxErrorResponses = (...causes: ErrorCause[]): MethodDecorator & ClassDecorator =>
  ApiErrorResponses({ name: 'AxErrorAnswer', dialect: AX_ERRORS }, causes);
