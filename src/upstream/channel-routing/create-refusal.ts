import { UpstreamCredentialsRefusedError, UpstreamRejectedError, UpstreamUnavailableError } from '../upstream.types';
import type { UpstreamVendor } from '../vendor';

/**
 * What a failed create says about where the task may go next:
 * - `refused`: the upstream surely did not take it (not reachable, never sent, a 5xx answered,
 *   throttled with a 429, an open breaker): another channel may be tried;
 * - `out-of-balance`: refused because this channel's account has no balance left: another channel
 *   may be tried, and this one takes no new task for a while;
 * - `credentials-refused`: refused because the upstream refused this channel's own credential or
 *   permissions: another channel may be tried, and this one is unhealthy until a call works again;
 * - `final`: a verdict on the request itself (any other 4xx), or an unknown outcome (sent, no
 *   answer: the upstream may have the task, so it must never be sent anywhere else).
 */
export type CreateRefusal = 'refused' | 'out-of-balance' | 'credentials-refused' | 'final';

export function classifyCreateFailure(error: unknown, vendor: UpstreamVendor | undefined): CreateRefusal {
  if (error instanceof UpstreamCredentialsRefusedError) return 'credentials-refused';
  if (error instanceof UpstreamUnavailableError) return 'refused';
  if (!(error instanceof UpstreamRejectedError)) return 'final';
  if (vendor?.outOfBalanceCodes?.some((code) => String(code) === String(error.nativeCode))) return 'out-of-balance';
  return error.httpStatus === 429 ? 'refused' : 'final';
}
