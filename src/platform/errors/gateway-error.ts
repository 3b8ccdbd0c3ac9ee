import { GatewayErrorCode } from './error-codes';

/** A native code and message that the upstream itself returned; passed on to the client verbatim. */
export interface UpstreamNativeError {
  code: string | number;
  message: string;
}

export interface GatewayErrorOptions {
  /** Upstream's own rejection, which replaces the gateway's native code table. */
  native?: UpstreamNativeError;
  /** Extra response headers, e.g. Retry-After. */
  headers?: Record<string, string>;
}

/** What a client is told to wait (`Retry-After`, seconds) while the gateway's own database does not answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * What a client is told to wait when an upstream cannot be reached or answers 5xx: the gateway
 * cannot know when it recovers, and a channel's breaker probes again within seconds.
 */
export const UPSTREAM_RETRY_AFTER_SECONDS = 5;

/** What a client is told to wait when a request with its `Idempotency-Key` is still being answered. */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;

/** The longest `error.message` the gateway sends. */
export const MAX_MESSAGE_LENGTH = 600;

/**
 * The one exception type the gateway throws on purpose. The global filter turns it into
 * `{error: {message, type, param, code}}` plus the family's native fields.
 */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: GatewayErrorCode,
    message: string,
    readonly param: string | null = null,
    readonly options: GatewayErrorOptions = {},
  ) {
    // A message may echo client input (a model name, a field value): never more than this.
    super(message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}...` : message);
    this.name = 'GatewayError';
  }

  static invalid(message: string, param: string | null = null, options?: GatewayErrorOptions): GatewayError {
    return new GatewayError(400, 'invalid_request', message, param, options);
  }

  static unauthorized(message = 'Missing or invalid API key.'): GatewayError {
    return new GatewayError(401, 'invalid_api_key', message);
  }

  static forbidden(message: string, param: string | null = null): GatewayError {
    return new GatewayError(403, 'permission_denied', message, param);
  }

  static insufficientQuota(message = 'The account balance cannot cover the estimated charge.'): GatewayError {
    return new GatewayError(403, 'insufficient_quota', message);
  }

  static modelNotFound(model: string, param: string): GatewayError {
    return new GatewayError(404, 'model_not_found', `The model '${model}' does not exist.`, param);
  }

  static notFound(what: string): GatewayError {
    return new GatewayError(404, 'not_found', `${what} not found.`);
  }

  static rateLimited(message: string, retryAfterSeconds: number, headers: Record<string, string> = {}): GatewayError {
    return new GatewayError(429, 'rate_limit_exceeded', message, null, {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))), ...headers },
    });
  }

  static unavailable(
    message = 'The upstream service is temporarily unavailable.',
    retryAfterSeconds = UPSTREAM_RETRY_AFTER_SECONDS,
  ): GatewayError {
    return new GatewayError(503, 'service_unavailable', message, null, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }

  /** The gateway's own database does not answer (down, restarting, out of connections): retry shortly. */
  static databaseUnavailable(): GatewayError {
    return new GatewayError(
      503,
      'service_unavailable',
      'The service is temporarily unavailable; retry shortly.',
      null,
      {
        headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      },
    );
  }

  static internal(): GatewayError {
    return new GatewayError(500, 'internal_error', 'Internal service error.');
  }
}
