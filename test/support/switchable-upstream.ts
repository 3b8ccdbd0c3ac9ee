import { AddressInfo } from 'node:net';
import { IncomingMessage, Server, ServerResponse, createServer, request } from 'node:http';

/**
 * What a switchable upstream does with each request:
 * - `proxy`: passes it to the target (a simulator vendor's base URL) and its answer back;
 * - `503`: answers 503 at once;
 * - `hang`: reads the whole request and never answers;
 * - `answer`: answers `answer.status` with `answer.body` as JSON (e.g. a vendor's out-of-balance
 *   error), or with `answer.text` as it is when given (e.g. a proxy's HTML page);
 * - `revoked`: passes it on with a credential the target does not know, so the target answers its own
 *   refusal of the key (as when the vendor revoked or expired it).
 */
export type SwitchMode = 'proxy' | '503' | 'hang' | 'answer' | 'revoked';

export interface SwitchableUpstream {
  readonly baseUrl: string;
  mode: SwitchMode;
  answer: { status: number; body: unknown; text?: string };
  /** POSTs received (whatever the mode). */
  posts: number;
  close(): Promise<void>;
}

/** A loopback HTTP server handed each request with its whole body; `close` cuts open connections. */
export async function startLoopbackServer(
  handle: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void,
): Promise<{ server: Server; baseUrl: string; close(): Promise<void> }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback HTTP server in front of a target, to make one channel fail in a chosen way. */
export async function startSwitchableUpstream(targetBaseUrl: string): Promise<SwitchableUpstream> {
  const target = new URL(targetBaseUrl);
  const hanging = new Set<ServerResponse>();
  const state: SwitchableUpstream = {
    baseUrl: '',
    mode: 'proxy',
    answer: { status: 500, body: {} },
    posts: 0,
    close: () => {
      for (const res of hanging) res.destroy();
      return loopback.close();
    },
  };
  const loopback = await startLoopbackServer((req, body, res) => {
    if (req.method === 'POST') state.posts++;
    if (state.mode === 'hang') return void hanging.add(res);
    if (state.mode === '503') return void res.writeHead(503, { 'content-type': 'application/json' }).end('{}');
    if (state.mode === 'answer' && state.answer.text !== undefined)
      return void res.writeHead(state.answer.status, { 'content-type': 'text/html' }).end(state.answer.text);
    if (state.mode === 'answer')
      return void res
        .writeHead(state.answer.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(state.answer.body));
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: `${target.pathname.replace(/\/$/, '')}${req.url}`,
        headers: {
          ...req.headers,
          host: target.host,
          ...(state.mode === 'revoked' ? { authorization: 'Bearer revoked-key' } : {}),
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    upstream.end(body);
  });
  return Object.assign(state, { baseUrl: loopback.baseUrl });
}

/**
 * A loopback address nothing listens on: connections are refused. Port 1 is outside the range
 * `listen(0)` hands out, so no server of a test can take it, as one could take a port just freed.
 */
export const REFUSING_BASE_URL = 'http://127.0.0.1:1';
