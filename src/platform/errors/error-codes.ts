/** Machine-readable error codes of the gateway error object (its `code` field). */
export type GatewayErrorCode =
  | 'invalid_request'
  | 'invalid_api_key'
  | 'permission_denied'
  | 'insufficient_quota'
  | 'model_not_found'
  | 'not_found'
  | 'idempotency_in_progress'
  | 'session_busy'
  | 'request_too_large'
  | 'idempotency_mismatch'
  | 'cannot_cancel'
  | 'rate_limit_exceeded'
  | 'internal_error'
  | 'service_unavailable';

/** The OpenAI-compatible `error.type` for each HTTP status class. */
export function errorTypeFor(status: number): string {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 429:
      return 'rate_limit_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}
