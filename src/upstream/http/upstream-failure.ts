import {
  UpstreamChannel,
  UpstreamCredentialsRefusedError,
  UpstreamOutcomeUnknownError,
  UpstreamRejectedError,
  UpstreamTaskNotFoundError,
  UpstreamUnavailableError,
} from '../upstream.types';
import { redactCredentials } from './redact';

/** What a log line says about one failed upstream call: never a header, a body or a credential. */
export interface UpstreamFailureFields {
  family: string;
  channel: string;
  /** The upstream's HTTP status; null when none came (not reachable, timed out, breaker open). */
  status: number | null;
  /** The upstream's own error code, when it answered with one. */
  code: string | number | null;
  /** The upstream's message (or the gateway's account of the failure), credentials masked. */
  message: string;
  /**
   * rejected (an answer refusing the call), credentials_refused (an answer refusing the channel's own
   * credentials), not_found, unavailable, unknown (sent, no answer), error.
   */
  outcome: 'rejected' | 'credentials_refused' | 'not_found' | 'unavailable' | 'unknown' | 'error';
}

/** The fields of the one WARN line logged for a failed upstream call on `channel`. */
export function upstreamFailureFields(error: unknown, channel: UpstreamChannel): UpstreamFailureFields {
  const base = { family: channel.family, channel: channel.id };
  const message = redactCredentials(error instanceof Error ? error.message : String(error), channel);
  if (error instanceof UpstreamRejectedError)
    return { ...base, status: error.httpStatus, code: error.nativeCode, message, outcome: 'rejected' };
  if (error instanceof UpstreamCredentialsRefusedError)
    return {
      ...base,
      status: error.httpStatus ?? null,
      code: error.nativeCode,
      message,
      outcome: 'credentials_refused',
    };
  if (error instanceof UpstreamUnavailableError)
    return { ...base, status: error.httpStatus ?? null, code: null, message, outcome: 'unavailable' };
  if (error instanceof UpstreamOutcomeUnknownError)
    return { ...base, status: null, code: null, message, outcome: 'unknown' };
  if (error instanceof UpstreamTaskNotFoundError)
    return { ...base, status: 404, code: null, message, outcome: 'not_found' };
  return { ...base, status: null, code: null, message, outcome: 'error' };
}
