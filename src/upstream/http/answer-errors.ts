import {
  UpstreamChannel,
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

/** Which kind of call answered: a task query's 404 means the task is unknown, elsewhere it is a rejection. */
export type CallKind = 'create' | 'fetch' | 'call';

export function isSuccess(response: UpstreamResponse): boolean {
  return response.status >= 200 && response.status < 300;
}

/** The rejection for a refused call, keeping the upstream's native code and (credential-free) message. */
export function rejection(
  httpStatus: number,
  native: Partial<NativeError> | undefined,
  channel: UpstreamChannel,
): UpstreamRejectedError {
  const message =
    native?.message !== undefined && native.message !== ''
      ? native.message
      : `Upstream rejected the request (HTTP ${httpStatus}).`;
  return new UpstreamRejectedError(httpStatus, native?.code ?? httpStatus, redactCredentials(message, channel));
}

/** Whether a non-2xx answer to a task query means "no such task" (by default: any 404). */
export type TaskNotFoundTest = (response: UpstreamResponse) => boolean;

const ANY_404: TaskNotFoundTest = (response) => response.status === 404;

/**
 * Throws the public error for a non-2xx answer below 500 (5xx never gets here: the transport
 * treats it as a fault): "not found" on a task query -> not found, other 4xx -> rejected with the
 * native code, anything else (1xx/3xx) -> unavailable. A family whose 404 also covers other
 * faults (family A: a wrong path or method) passes its own `isTaskNotFound`.
 */
export function throwUnlessSuccess(
  response: UpstreamResponse,
  kind: CallKind,
  channel: UpstreamChannel,
  readNativeError: NativeErrorReader,
  isTaskNotFound: TaskNotFoundTest = ANY_404,
): void {
  if (isSuccess(response)) return;
  if (kind === 'fetch' && isTaskNotFound(response)) {
    throw new UpstreamTaskNotFoundError(`The task is unknown to upstream channel ${channel.id}.`);
  }
  if (response.status >= 400 && response.status < 500)
    throw rejection(response.status, readNativeError(response.body), channel);
  throw new UpstreamUnavailableError(
    `Upstream channel ${channel.id} answered an unexpected HTTP ${response.status}.`,
    response.status,
  );
}
