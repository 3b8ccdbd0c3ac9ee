import type { ClientRequest } from 'node:http';
import { isAxiosError } from 'axios';
import { CONNECT_TIMEOUT_CODE } from './connect-timeout-agents';
import { SEND_TIMEOUT_CODE } from './lean-http-adapter';

/**
 * What went wrong on the wire:
 * - `http-5xx`: the upstream answered with a server error;
 * - `timeout`: no complete answer within the time limit;
 * - `connect`: could not connect (refused, DNS, connect timeout, unreachable), or no connection was
 *   free or ready to send on within the connect time limit;
 * - `stale-connection`: a reused keep-alive socket was reset before any answer (the server had closed it);
 * - `connection-lost`: the connection broke before a complete answer.
 */
export type UpstreamFaultKind = 'http-5xx' | 'timeout' | 'connect' | 'stale-connection' | 'connection-lost';

/**
 * An upstream fault: the only kind of failure that counts against a channel's circuit breaker and
 * that GET retries react to. Internal to `upstream/http`; callers see the public errors of
 * upstream.types.ts instead.
 */
export class UpstreamFault extends Error {
  constructor(
    readonly kind: UpstreamFaultKind,
    message: string,
    /** The whole request reached the socket, so the upstream may have acted on it. */
    readonly requestSent: boolean,
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = 'UpstreamFault';
  }
}

/** Node/axios error codes meaning the TCP connection could not be made. */
const CONNECT_CODES = new Set([
  CONNECT_TIMEOUT_CODE,
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

/**
 * Classifies a transport error thrown by axios. `timedOut` is true when our own time limit aborted
 * the call. Whether the request was fully written decides, for a create, between "surely not
 * accepted" and "maybe accepted"; `writableFinished` turns true only once the last byte left for
 * the socket. Returns undefined for errors that are not about the wire (programming errors).
 */
export function faultFromTransportError(error: unknown, timedOut: boolean): UpstreamFault | undefined {
  if (!isAxiosError(error)) return undefined;
  const request = error.request as Partial<ClientRequest> | undefined;
  const requestSent = request?.writableFinished === true;
  const code = error.code ?? '';
  if (timedOut)
    return new UpstreamFault(
      'timeout',
      requestSent ? 'no answer within the time limit' : 'request could not be sent within the time limit',
      requestSent,
    );
  if (CONNECT_CODES.has(code)) return new UpstreamFault('connect', `could not connect (${code})`, false);
  if (code === SEND_TIMEOUT_CODE)
    return new UpstreamFault('connect', `${error.message} (no connection to the upstream was free or ready)`, false);
  // Node's advice: a reset on a reused keep-alive socket means the server had already closed it; nothing was processed.
  if (code === 'ECONNRESET' && request?.reusedSocket === true)
    return new UpstreamFault('stale-connection', 'reused connection was closed by the upstream', false);
  return new UpstreamFault('connection-lost', `connection lost${code ? ` (${code})` : ''}`, requestSent);
}
