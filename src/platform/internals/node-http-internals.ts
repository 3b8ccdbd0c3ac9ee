import type { ServerResponse } from 'http';
import type { Socket } from 'net';

/**
 * The one file that relies on the internals of Node's HTTP server (the spec beside it fails when
 * the running Node no longer behaves as relied on).
 *
 * The response in flight on a server connection, if any. Relies on: Node's server keeping it as
 * the socket's `_httpMessage` from the request's arrival until the response is finished, which its
 * own answer to a client error checks the same way (an error on a connection with a response
 * under way must not be written into it).
 */
export function responseInFlight(socket: Socket): ServerResponse | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}
