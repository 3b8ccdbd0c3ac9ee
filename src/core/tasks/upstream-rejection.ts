import { GatewayError } from '../../platform/errors';
import { UpstreamRejectedError } from '../../upstream/upstream.types';

/** How long a client is told to wait after the upstream throttled the gateway. */
export const UPSTREAM_THROTTLE_RETRY_AFTER_SECONDS = 5;

/**
 * An upstream's refusal as the client's error. The upstream's own code and message travel along,
 * so the family's native error fields show them instead of the gateway's code table.
 * Throttling (the upstream's 429: kl 1302, ax `Throttling.*`, vd 429) is not the
 * client's fault and is worth retrying: 429 with `Retry-After`. Any other refusal is the client's 400.
 * `what`: the refused thing, for the message.
 */
export function upstreamRejection(
  error: UpstreamRejectedError,
  what = 'request',
  param: string | null = null,
): GatewayError {
  const native = { code: error.nativeCode, message: error.message };
  if (error.httpStatus === 429)
    return new GatewayError(
      429,
      'rate_limit_exceeded',
      `The upstream is throttling requests (${error.message}); retry after ${UPSTREAM_THROTTLE_RETRY_AFTER_SECONDS} seconds.`,
      null,
      { native, headers: { 'Retry-After': String(UPSTREAM_THROTTLE_RETRY_AFTER_SECONDS) } },
    );
  return GatewayError.invalid(`The upstream rejected the ${what}: ${error.message}`, param, { native });
}
