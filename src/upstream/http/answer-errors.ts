import {
  UpstreamChannel,
  UpstreamCredentialsRefusedError,
  UpstreamRejectedError,
  UpstreamTaskNotFoundError,
  UpstreamUnavailableError,
} from '../upstream.types';
import { redactCredentials } from './redact';
import type { UpstreamResponse } from './upstream-transport';

/** A family's own error code and message, read from its error body. */
export interface NativeError {
  code: string | number;
  message: string;
}

/** Reads a family's error body; undefined when the body does not look like one. */
export type NativeErrorReader = (body: unknown) => Partial<NativeError> | undefined;

/**
 * How a vendor words its refusals: its error body, and which refusals are about the channel's own
 * account (its credential, its balance) rather than about the request.
 */
export interface VendorRefusals {
  readonly read: NativeErrorReader;
  /** Whether a native code says the channel's credential or permissions were refused, whatever the HTTP status. */
  readonly refusesCredentials?: (code: string | number) => boolean;
  /** Native codes meaning the channel's account has no balance left: a refusal, never a refused credential. */
  readonly outOfBalanceCodes?: readonly (string | number)[];
}

/**
 * Which kind of call answered: a task query's or a cancel's 404 means the task is unknown, elsewhere it is a
 * rejection.
 */
export type CallKind = 'create' | 'fetch' | 'cancel' | 'call';

export function isSuccess(response: UpstreamResponse): boolean {
  return response.status >= 200 && response.status < 300;
}

/**
 * The error for a refused call, keeping the upstream's native code and (credential-free) message:
 * `UpstreamCredentialsRefusedError` when the upstream refused the channel's credential or
 * permissions (any 401 or 403 but an out-of-balance one, or the vendor's own code for it),
 * otherwise `UpstreamRejectedError`, a verdict on the request.
 */
export function rejection(
  httpStatus: number,
  native: Partial<NativeError> | undefined,
  channel: UpstreamChannel,
  vendor: VendorRefusals,
): UpstreamRejectedError | UpstreamCredentialsRefusedError {
  const message = redactCredentials(
    native?.message !== undefined && native.message !== ''
      ? native.message
      : `Upstream rejected the request (HTTP ${httpStatus}).`,
    channel,
  );
  const code = native?.code ?? httpStatus;
  if (refusesCredentials(httpStatus, code, vendor))
    return new UpstreamCredentialsRefusedError(
      `Upstream channel ${channel.id} refused its credentials (HTTP ${httpStatus}, ${code}): ${message}`,
      httpStatus,
      code,
    );
  return new UpstreamRejectedError(httpStatus, code, message);
}

function refusesCredentials(httpStatus: number, code: string | number, vendor: VendorRefusals): boolean {
  if (vendor.outOfBalanceCodes?.some((balance) => String(balance) === String(code))) return false;
  return httpStatus === 401 || httpStatus === 403 || vendor.refusesCredentials?.(code) === true;
}

/** Whether a non-2xx answer to a task query means "no such task" (by default: any 404). */
export type TaskNotFoundTest = (response: UpstreamResponse) => boolean;

const ANY_404: TaskNotFoundTest = (response) => response.status === 404;

/**
 * Throws the public error for a non-2xx answer below 500 (5xx never gets here: the transport
 * treats it as a fault): "not found" on a task query -> not found, other 4xx -> `rejection`,
 * anything else (1xx/3xx) -> unavailable. A family whose 404 also covers other
 * faults (kl: a wrong path or method) passes its own `isTaskNotFound`.
 */
export function throwUnlessSuccess(
  response: UpstreamResponse,
  kind: CallKind,
  channel: UpstreamChannel,
  vendor: VendorRefusals,
  isTaskNotFound: TaskNotFoundTest = ANY_404,
): void {
  if (isSuccess(response)) return;
  if ((kind === 'fetch' || kind === 'cancel') && isTaskNotFound(response)) {
    throw new UpstreamTaskNotFoundError(`The task is unknown to upstream channel ${channel.id}.`);
  }
  if (response.status >= 400 && response.status < 500)
    throw rejection(response.status, vendor.read(response.body), channel, vendor);
  throw new UpstreamUnavailableError(
    `Upstream channel ${channel.id} answered an unexpected HTTP ${response.status}.`,
    response.status,
  );
}
