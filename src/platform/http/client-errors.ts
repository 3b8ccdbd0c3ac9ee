import { randomUUID } from 'crypto';
import { IncomingMessage, STATUS_CODES, Server, ServerResponse, maxHeaderSize } from 'http';
import type { Socket } from 'net';
import { ErrorWriter, GatewayError } from '../errors';
import { responseInFlight } from '../internals/node-http-internals';

/** A connection whose error was answered: a client still sending gets this long to read it, then it goes. */
const CLOSE_AFTER_MS = 2_000;
const ANSWERED = Symbol('gateway.clientErrorAnswered');

/** What Node's HTTP server hands its `clientError` listeners. */
type ClientError = Error & { code?: string; reason?: string; rawPacket?: Buffer };
type ServerSocket = Socket & { [ANSWERED]?: true };

/**
 * Answers what Node's HTTP server refuses before the app sees a request (headers or body too
 * slow, headers too large, malformed HTTP) and an `Expect` other than `100-continue` with the
 * gateway error object, as every error the gateway produces (Node's own answers have no body), and
 * closes the connection. A request already being answered is not written into: its connection
 * just goes.
 */
export function answerClientErrors(server: Server, errors: ErrorWriter): void {
  server.on('clientError', (error: ClientError, socket: ServerSocket) => {
    if (socket[ANSWERED]) return;
    const inFlight = responseInFlight(socket);
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) return socket.destroy();
    socket[ANSWERED] = true;
    const req = inFlight?.req as (IncomingMessage & { id?: string }) | undefined;
    const requestId = req?.id ?? randomUUID();
    const path = req?.url ?? requestPathOf(error.rawPacket);
    const refusal = refusalOf(error, server);
    const body = JSON.stringify(errors.body(refusal, path, requestId));
    socket.end(
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\nContent-Type: ${JSON_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
    setTimeout(() => socket.destroy(), CLOSE_AFTER_MS).unref();
  });
  // With a listener, Node hands such a request here rather than to the app.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const requestId = randomUUID();
    const refusal = new GatewayError(417, 'invalid_request', 'Only "Expect: 100-continue" is supported.');
    const body = JSON.stringify(errors.body(refusal, req.url ?? '', requestId));
    res.writeHead(417, {
      'Content-Type': JSON_TYPE,
      'Content-Length': Buffer.byteLength(body),
      'X-Request-Id': requestId,
      Connection: 'close',
    });
    res.end(body);
  });
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Node's error codes as the gateway's errors: a deadline missed is 408, headers too large 431, the rest 400. */
function refusalOf(error: ClientError, server: Server): GatewayError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      // The contract's codes only: a request that never arrived whole is an invalid one.
      return new GatewayError(
        408,
        'invalid_request',
        `The request did not arrive in time: its headers are due within ${server.headersTimeout / 1000} s, the whole request within ${server.requestTimeout / 1000} s.`,
      );
    case 'HPE_HEADER_OVERFLOW': {
      const limit = (server as { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize;
      return new GatewayError(431, 'request_too_large', `The request line and headers exceed ${limit / 1024} KiB.`);
    }
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new GatewayError(413, 'request_too_large', "The body's chunk extensions are too large.");
    default: {
      // llhttp's reasons are its own fixed texts, never the client's bytes.
      const reason = error.code?.startsWith('HPE_') ? error.reason?.replace(/\.$/, '') : undefined;
      return GatewayError.invalid(`The request is not valid HTTP/1.1${reason ? `: ${reason}` : ''}.`);
    }
  }
}

/** The path of the request line the parser failed on, when the failed bytes begin with it (for the family's native fields). */
function requestPathOf(raw: Buffer | undefined): string {
  if (!Buffer.isBuffer(raw)) return '';
  return /^[A-Z]+ (\/\S*)/.exec(raw.subarray(0, 64).toString('latin1'))?.[1] ?? '';
}
