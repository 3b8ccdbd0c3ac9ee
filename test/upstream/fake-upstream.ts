import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake upstream received it. */
export interface ReceivedRequest {
  method: string;
  /** Path with query string. */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body, the raw text when not JSON, undefined when empty. */
  body: unknown;
  /** Client port: equal ports on consecutive requests mean a reused keep-alive connection. */
  remotePort: number | undefined;
}

/** Answers a request; may also never answer (to simulate a hanging upstream). */
export type FakeHandler = (request: ReceivedRequest, response: http.ServerResponse) => void;

export interface FakeUpstream {
  readonly baseUrl: string;
  readonly requests: ReceivedRequest[];
  handle(handler: FakeHandler): void;
  /** From now on, answers every request with this status and JSON body. */
  answerJson(status: number, body: unknown): void;
  close(): Promise<void>;
}

export function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

/** A tiny `node:http` server on loopback standing in for an upstream in client tests (not the simulator). */
export async function startFakeUpstream(
  initial: FakeHandler = (_request, response) => sendJson(response, 200, {}),
): Promise<FakeUpstream> {
  let handler = initial;
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text === '' ? undefined : text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // keep the text
      }
      const received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        remotePort: req.socket.remotePort,
      };
      requests.push(received);
      handler(received, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    handle: (next) => (handler = next),
    answerJson: (status, body) => (handler = (_request, response) => sendJson(response, status, body)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
