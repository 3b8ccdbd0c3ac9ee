import * as http from 'node:http';
import * as https from 'node:https';
import type { Duplex } from 'node:stream';

/** `code` of the error a socket is destroyed with when connecting takes too long. */
export const CONNECT_TIMEOUT_CODE = 'UPSTREAM_CONNECT_TIMEOUT';

/**
 * Arms a timer on a fresh socket and destroys it if `readyEvent` has not fired in time.
 * Why here: axios only knows a whole-request timeout; a separate, shorter connect timeout lets an
 * unreachable host fail fast while a slow-but-alive upstream still gets the full request time.
 */
function armConnectTimer(
  socket: Duplex | null | undefined,
  readyEvent: 'connect' | 'secureConnect',
  timeoutMs: number,
): void {
  if (!socket) return;
  const timer = setTimeout(() => {
    const error = Object.assign(new Error(`connect timeout after ${timeoutMs} ms`), { code: CONNECT_TIMEOUT_CODE });
    socket.destroy(error);
  }, timeoutMs);
  timer.unref();
  const disarm = () => clearTimeout(timer);
  socket.once(readyEvent, disarm);
  socket.once('close', disarm);
}

/** Keep-alive HTTP agent whose new connections must be established within `connectTimeoutMs`. */
export class ConnectTimeoutHttpAgent extends http.Agent {
  constructor(
    options: http.AgentOptions,
    private readonly connectTimeoutMs: number,
  ) {
    super(options);
  }

  override createConnection(
    options: http.ClientRequestArgs,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const socket = super.createConnection(options, callback);
    armConnectTimer(socket, 'connect', this.connectTimeoutMs);
    return socket;
  }
}

/** Keep-alive HTTPS agent; the connect timeout covers TCP connect plus the TLS handshake. */
export class ConnectTimeoutHttpsAgent extends https.Agent {
  constructor(
    options: https.AgentOptions,
    private readonly connectTimeoutMs: number,
  ) {
    super(options);
  }

  override createConnection(
    options: https.RequestOptions,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const socket = super.createConnection(options, callback);
    armConnectTimer(socket, 'secureConnect', this.connectTimeoutMs);
    return socket;
  }
}
