import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo, LookupFunction, Socket } from 'node:net';
import { inspect } from 'node:util';
import { gzipSync } from 'node:zlib';
import axios, { AxiosError, AxiosInstance, isCancel } from 'axios';
import { createTestUpstream } from '../../../test/upstream/test-upstream';
import { UpstreamChannel, UpstreamOutcomeUnknownError, UpstreamUnavailableError } from '../upstream.types';
import { CONNECT_TIMEOUT_CODE, ConnectTimeoutHttpAgent } from './connect-timeout-agents';
import { createLeanHttpAdapter, leanAxiosInstance, queryString, requestPath } from './lean-http-adapter';
import { faultFromTransportError } from './upstream-fault';

// Test-only self-signed certificate for 127.0.0.1/localhost (openssl req -x509 -newkey ec -days 36500 ...); never trusted outside this file.
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSDuZi+dwWHSL4fKi
/q2edQ2YGc09pWk96EBHW+QdvcKhRANCAAQo7Z4cAcRDR8XRDT5d5RENE4iVI8Bi
mrtxHcW7LJaAqlEG2edNRrYWFmsCdOLFA14zOySZLrWCCnz+XCLuDRAH
-----END PRIVATE KEY-----`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUWkTePLoytyBi6VmijY3h7fbrTuowCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMzE3MzEzNloYDzIxMjYxMDMw
MTczMTM2WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQo7Z4cAcRDR8XRDT5d5RENE4iVI8BimrtxHcW7LJaAqlEG2edNRrYW
FmsCdOLFA14zOySZLrWCCnz+XCLuDRAHo28wbTAdBgNVHQ4EFgQUhKu4hmFik4TT
IoVfPXiQt6HwP9wwHwYDVR0jBBgwFoAUhKu4hmFik4TTIoVfPXiQt6HwP9wwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZI
zj0EAwIDSAAwRQIhANhYV33yM7FUOGydCzzGlGcLUSqZTwfmUMaQnhWjCnPNAiA5
q+uQcrmOymjTOOuqJHH8xy62VAaIDDuCNKvQqZG88A==
-----END CERTIFICATE-----`;

const MAX_BYTES = 1024;

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
  remotePort: number | undefined;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => void;

interface TestServer {
  baseUrl: string;
  seen: Seen[];
  sockets: Socket[];
  /** Resolves when the n-th connection (0-based) has closed. */
  closed(index: number): Promise<void>;
  handle(next: Handler): void;
  close(): Promise<void>;
}

/** A bare node server whose handler runs after the whole request body was read. */
async function startServer(handler: Handler, tls = false): Promise<TestServer> {
  let current = handler;
  const seen: Seen[] = [];
  const sockets: Socket[] = [];
  const closes: Promise<void>[] = [];
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
        remotePort: req.socket.remotePort,
      };
      seen.push(entry);
      current(req, res, entry);
    });
  };
  const server = tls ? https.createServer({ key: TEST_KEY, cert: TEST_CERT }, listener) : http.createServer(listener);
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    sockets.push(socket);
    closes.push(new Promise((resolve) => socket.once('close', () => resolve())));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    seen,
    sockets,
    closed: (index) => closes[index],
    handle: (next) => (current = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
};

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>(
    (_resolve, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms)),
  );
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as AxiosError,
  );

describe('lean http adapter', () => {
  let server: TestServer;
  let httpAgent: http.Agent;
  let httpsAgent: https.Agent;
  let client: AxiosInstance;

  beforeEach(async () => {
    server = await startServer((_req, res) => json(res, 200, { ok: true }));
    httpAgent = new http.Agent({ keepAlive: true });
    httpsAgent = new https.Agent({ keepAlive: true, ca: TEST_CERT });
    client = leanAxiosInstance(
      axios.create(),
      createLeanHttpAdapter({ httpAgent, httpsAgent, maxResponseBytes: MAX_BYTES }),
    );
  });
  afterEach(async () => {
    httpAgent.destroy();
    httpsAgent.destroy();
    await server.close();
  });

  describe('the request on the wire', () => {
    it('sends the path below the base URL and the query string exactly as axios built them', async () => {
      const params = { a: 'x y', b: 2, c: true, d: undefined, e: "ä/?&=#+%:$,[]!'()*~@;", f: '' };
      await client.request({ baseURL: `${server.baseUrl}/prefix/`, url: '/api/v1/tasks/t-1', method: 'GET', params });
      // axios' node adapter appended the query after URL parsing (so a quote stays a quote): as getUri builds it.
      expect(`${server.baseUrl}${server.seen[0].url}`).toBe(
        axios.getUri({ baseURL: `${server.baseUrl}/prefix/`, url: '/api/v1/tasks/t-1', params }),
      );
      expect(server.seen[0].url).toBe(
        "/prefix/api/v1/tasks/t-1?a=x+y&b=2&c=true&e=%C3%A4%2F%3F%26%3D%23%2B%25:$,%5B%5D!'()*~%40%3B&f=",
      );
    });

    it('sends the given headers, the body with its byte length, and the User-Agent axios sent', async () => {
      const body = JSON.stringify({ prompt: 'café' });
      await client.request({
        baseURL: server.baseUrl,
        url: '/create',
        method: 'POST',
        data: body,
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          Authorization: 'Bearer sk-test-secret',
          'X-DashScope-Async': 'enable',
        },
      });
      const [request] = server.seen;
      expect(request.method).toBe('POST');
      expect(request.body).toBe(body);
      expect(request.headers).toMatchObject({
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: 'Bearer sk-test-secret',
        'x-dashscope-async': 'enable',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': `axios/${axios.VERSION}`,
        'accept-encoding': 'identity',
        connection: 'keep-alive',
      });
      // Header names keep their case on the wire.
      expect(request.rawHeaders).toEqual(
        expect.arrayContaining(['Authorization', 'X-DashScope-Async', 'Content-Type']),
      );
    });

    it('sends a GET without a body, Content-Type or Content-Length', async () => {
      await client.request({
        baseURL: server.baseUrl,
        url: '/task/1',
        method: 'GET',
        headers: { Accept: 'application/json' },
      });
      expect(server.seen[0].headers['content-length']).toBeUndefined();
      expect(server.seen[0].headers['content-type']).toBeUndefined();
      expect(server.seen[0].headers['transfer-encoding']).toBeUndefined();
    });

    it('reuses the keep-alive connection between calls', async () => {
      for (let i = 0; i < 3; i++) await client.request({ baseURL: server.baseUrl, url: '/task/1', method: 'GET' });
      expect(new Set(server.seen.map((request) => request.remotePort)).size).toBe(1);
      expect(server.sockets).toHaveLength(1);
    });

    it('speaks https through the https agent', async () => {
      const secure = await startServer((_req, res) => json(res, 201, { secure: true }), true);
      try {
        const response = await client.request({ baseURL: secure.baseUrl, url: '/create', method: 'POST', data: '{}' });
        expect(response).toMatchObject({ status: 201, data: '{"secure":true}' });
        await client.request({ baseURL: secure.baseUrl, url: '/create', method: 'POST', data: '{}' });
        expect(secure.sockets).toHaveLength(1);
      } finally {
        await secure.close();
      }
    });
  });

  describe('the axios instance', () => {
    it('keeps only the adapter as its defaults and leaves the base instance alone', () => {
      const base = axios.create({ headers: { 'X-Base': '1' } });
      const adapter = createLeanHttpAdapter({ httpAgent, httpsAgent, maxResponseBytes: MAX_BYTES });
      const lean = leanAxiosInstance(base, adapter);
      expect(lean.defaults).toEqual({ adapter });
      expect(base.defaults.headers['X-Base']).toBe('1');
      expect(base.defaults.adapter).toEqual(axios.defaults.adapter);
    });
  });

  describe('paths and query strings', () => {
    it.each([
      ['/tasks/a b'],
      ['/tasks/ä'],
      ['/a/../b'],
      ['/a/./b/.'],
      ['/x?y=1'],
      ['/x#frag'],
      ['//double'],
      ['/plain/task-01_A.b~c'],
      ['/pct/%2F%zz'],
      ['no-slash'],
    ])('builds %s as URL parsing would', (path) => {
      const expected = new URL(`http://h/base/${path.replace(/^\/+/, '')}`);
      expect(requestPath('/base', path, undefined)).toBe(expected.pathname + expected.search);
    });

    it('appends the query with & when the path already has one, and leaves it off when every value is undefined', () => {
      expect(requestPath('', '/x?y=1', { z: 2 })).toBe('/x?y=1&z=2');
      expect(requestPath('', '/x', { z: undefined })).toBe('/x');
      expect(requestPath('', '/x', {})).toBe('/x');
    });

    it('encodes like axios for every printable ASCII character and some beyond', () => {
      let text = '';
      for (let code = 32; code < 127; code++) text += String.fromCharCode(code);
      const params = {
        [text]: text,
        ' padded key ': ' padded value ',
        unicode: 'é中😀',
        number: 1.5,
        no: false,
        nothing: null,
      };
      expect(`http://h/?${queryString(params)}`).toBe(axios.getUri({ url: 'http://h/', params }));
    });
  });

  describe('answers', () => {
    it('resolves every status with the body as text, a UTF-8 BOM stripped', async () => {
      server.handle((_req, res) => res.writeHead(404, { 'Content-Type': 'text/plain' }).end('\ufeffnot here'));
      await expect(client.request({ baseURL: server.baseUrl, url: '/x', method: 'GET' })).resolves.toMatchObject({
        status: 404,
        data: 'not here',
      });
      server.handle((_req, res) => json(res, 503, { busy: true }));
      await expect(client.request({ baseURL: server.baseUrl, url: '/x', method: 'GET' })).resolves.toMatchObject({
        status: 503,
        data: '{"busy":true}',
      });
    });

    it('returns a redirect as an answer and does not follow it', async () => {
      server.handle((req, res) =>
        req.url === '/start'
          ? res.writeHead(302, { Location: '/elsewhere' }).end('moved')
          : json(res, 200, { followed: true }),
      );
      await expect(
        client.request({ baseURL: server.baseUrl, url: '/start', method: 'POST', data: '{}' }),
      ).resolves.toMatchObject({ status: 302, data: 'moved' });
      expect(server.seen.map((request) => request.url)).toEqual(['/start']);
    });

    it('accepts an answer of exactly maxResponseBytes', async () => {
      server.handle((_req, res) => res.writeHead(200).end('x'.repeat(MAX_BYTES)));
      await expect(client.request({ baseURL: server.baseUrl, url: '/x', method: 'GET' })).resolves.toMatchObject({
        data: 'x'.repeat(MAX_BYTES),
      });
    });

    it('fails a larger answer with ERR_BAD_RESPONSE and stops reading it (the connection is dropped)', async () => {
      // An endless answer: only the limit ends this call.
      server.handle((_req, res) => {
        res.writeHead(200);
        const timer = setInterval(() => res.write('y'.repeat(512)), 2);
        res.on('close', () => clearInterval(timer));
      });
      const error = await errorOf(client.request({ baseURL: server.baseUrl, url: '/x', method: 'POST', data: '{}' }));
      expect(error).toMatchObject({
        code: 'ERR_BAD_RESPONSE',
        message: `maxContentLength size of ${MAX_BYTES} exceeded`,
      });
      await within(server.closed(0), 5_000, 'the connection closing');
      expect(faultFromTransportError(error, false)).toMatchObject({ kind: 'connection-lost', requestSent: true });
    });

    it('decodes a compressed answer although it did not ask for one; the limit applies to the decoded size', async () => {
      server.handle((_req, res) =>
        res.writeHead(200, { 'Content-Encoding': 'gzip' }).end(gzipSync(JSON.stringify({ zipped: true }))),
      );
      await expect(client.request({ baseURL: server.baseUrl, url: '/x', method: 'GET' })).resolves.toMatchObject({
        data: '{"zipped":true}',
      });
      server.handle((_req, res) =>
        res.writeHead(200, { 'Content-Encoding': 'gzip' }).end(gzipSync('z'.repeat(MAX_BYTES * 4))),
      );
      await expect(client.request({ baseURL: server.baseUrl, url: '/x', method: 'GET' })).rejects.toMatchObject({
        code: 'ERR_BAD_RESPONSE',
      });
    });
  });

  describe('the time limit (AbortSignal)', () => {
    it('rejects with a cancel carrying the request, and destroys the connection', async () => {
      server.handle(() => undefined); // never answers
      const controller = new AbortController();
      const call = errorOf(
        client.request({
          baseURL: server.baseUrl,
          url: '/create',
          method: 'POST',
          data: '{"a":1}',
          signal: controller.signal,
        }),
      );
      await within(
        waitFor(() => server.seen.length === 1),
        5_000,
        'the request arriving',
      );
      controller.abort();
      const error = await call;
      expect(isCancel(error)).toBe(true);
      expect(error.code).toBe('ERR_CANCELED');
      expect((error.request as http.ClientRequest).writableFinished).toBe(true);
      expect(faultFromTransportError(error, true)).toMatchObject({ kind: 'timeout', requestSent: true });
      await within(server.closed(0), 5_000, 'the connection closing');
      expect(Object.keys(httpAgent.freeSockets)).toHaveLength(0);
    });

    it('sends nothing when the signal has already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(
        client.request({ baseURL: server.baseUrl, url: '/x', method: 'POST', data: '{}', signal: controller.signal }),
      ).rejects.toMatchObject({ code: 'ERR_CANCELED' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.seen).toHaveLength(0);
    });
  });

  describe('connection failures, classified as axios errors were', () => {
    it('refused: a connect fault, nothing written', async () => {
      const gone = await startServer(() => undefined);
      await gone.close();
      const error = await errorOf(client.request({ baseURL: gone.baseUrl, url: '/x', method: 'POST', data: '{}' }));
      expect(error.code).toBe('ECONNREFUSED');
      expect((error.request as http.ClientRequest).writableFinished).toBe(false);
      expect(faultFromTransportError(error, false)).toMatchObject({ kind: 'connect', requestSent: false });
    });

    it('connect timeout of the agent: a connect fault', async () => {
      const neverResolves: LookupFunction = () => undefined;
      const agent = new ConnectTimeoutHttpAgent({ keepAlive: true, lookup: neverResolves } as http.AgentOptions, 100);
      const slow = leanAxiosInstance(
        axios.create(),
        createLeanHttpAdapter({ httpAgent: agent, httpsAgent, maxResponseBytes: MAX_BYTES }),
      );
      try {
        const error = await errorOf(slow.request({ baseURL: 'http://upstream.invalid', url: '/x', method: 'GET' }));
        expect(error.code).toBe(CONNECT_TIMEOUT_CODE);
        expect(faultFromTransportError(error, false)).toMatchObject({ kind: 'connect', requestSent: false });
      } finally {
        agent.destroy();
      }
    });

    it('reset after the whole body was sent on a fresh connection: sent, connection lost', async () => {
      server.handle((req) => req.socket.destroy());
      const error = await errorOf(client.request({ baseURL: server.baseUrl, url: '/x', method: 'POST', data: '{}' }));
      expect(error.code).toBe('ECONNRESET');
      expect((error.request as http.ClientRequest).writableFinished).toBe(true);
      expect(faultFromTransportError(error, false)).toMatchObject({ kind: 'connection-lost', requestSent: true });
    });

    it('reset of a reused keep-alive connection before any answer: a stale connection, not processed', async () => {
      await client.request({ baseURL: server.baseUrl, url: '/first', method: 'GET' });
      server.handle((req) => req.socket.destroy());
      const error = await errorOf(client.request({ baseURL: server.baseUrl, url: '/x', method: 'POST', data: '{}' }));
      expect((error.request as http.ClientRequest).reusedSocket).toBe(true);
      expect(faultFromTransportError(error, false)).toMatchObject({ kind: 'stale-connection', requestSent: false });
    });

    it('an answer that breaks off midway, even on a reused connection: processed, connection lost', async () => {
      await client.request({ baseURL: server.baseUrl, url: '/first', method: 'GET' });
      server.handle((req, res) => {
        res.writeHead(200, { 'Content-Length': '100' });
        res.write('{"partial":');
        setTimeout(() => req.socket.resetAndDestroy(), 10);
      });
      const error = await errorOf(client.request({ baseURL: server.baseUrl, url: '/x', method: 'POST', data: '{}' }));
      expect(error.code).toBe('ERR_BAD_RESPONSE');
      expect(faultFromTransportError(error, false)).toMatchObject({ kind: 'connection-lost', requestSent: true });
    });
  });
});

describe('UpstreamTransport over the lean adapter', () => {
  let server: TestServer;
  let stack: ReturnType<typeof createTestUpstream>;
  const channel = (baseUrl: string): UpstreamChannel => ({
    id: 'lean',
    family: 'ax',
    baseUrl,
    apiKey: 'sk-test-secret',
  });

  beforeEach(async () => {
    server = await startServer((_req, res) => json(res, 200, {}));
    stack = createTestUpstream({ maxResponseBytes: MAX_BYTES });
  });
  afterEach(async () => {
    stack.close();
    await server.close();
  });

  it('sends Accept, the JSON body and the family headers; GETs carry the query', async () => {
    await stack.transport.send(channel(server.baseUrl), {
      method: 'POST',
      path: '/create',
      body: { a: 1 },
      headers: { Authorization: 'Bearer sk-test-secret' },
    });
    await stack.transport.send(channel(server.baseUrl), {
      method: 'GET',
      path: '/task/1',
      query: { external_task_id: 'a b', n: 1, none: undefined },
      headers: {},
    });
    expect(server.seen[0]).toMatchObject({
      body: '{"a":1}',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: 'Bearer sk-test-secret',
      },
    });
    expect(server.seen[1].url).toBe('/task/1?external_task_id=a+b&n=1');
    expect(server.seen[1].headers).toMatchObject({ accept: 'application/json' });
  });

  it('returns a 3xx to the family client (not followed)', async () => {
    server.handle((_req, res) => res.writeHead(307, { Location: 'http://elsewhere.invalid/' }).end());
    await expect(
      stack.transport.send(channel(server.baseUrl), { method: 'POST', path: '/create', body: {}, headers: {} }),
    ).resolves.toEqual({ status: 307, body: undefined });
    expect(server.seen).toHaveLength(1);
  });

  it('an oversize answer is a fault: outcome unknown for a POST, unavailable for a GET', async () => {
    server.handle((_req, res) => res.writeHead(200).end('x'.repeat(MAX_BYTES + 1)));
    await expect(
      stack.transport.send(channel(server.baseUrl), { method: 'POST', path: '/create', body: {}, headers: {} }),
    ).rejects.toBeInstanceOf(UpstreamOutcomeUnknownError);
    await expect(
      stack.transport.send(channel(server.baseUrl), { method: 'GET', path: '/task/1', headers: {} }),
    ).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });

  it('a request on a stale keep-alive connection goes again on another socket, POST included; the breaker never sees it', async () => {
    for (const method of ['POST', 'GET'] as const) {
      server.handle((_req, res) => json(res, 200, {}));
      await stack.transport.send(channel(server.baseUrl), { method: 'GET', path: '/first', headers: {} });
      let calls = 0;
      // The first request lands on the pooled socket, which the upstream closes unread.
      server.handle((req, res) => (++calls === 1 ? req.socket.destroy() : json(res, 200, { again: method })));
      await expect(
        stack.transport.send(channel(server.baseUrl), {
          method,
          path: '/create',
          body: method === 'POST' ? {} : undefined,
          headers: {},
        }),
      ).resolves.toEqual({
        status: 200,
        body: { again: method },
      });
      expect(calls).toBe(2);
    }
  });

  it('a POST whose connection breaks after it was sent is not sent again: outcome unknown', async () => {
    let calls = 0;
    server.handle((req) => {
      calls++;
      req.socket.destroy();
    });
    await expect(
      stack.transport.send(channel(server.baseUrl), { method: 'POST', path: '/create', body: {}, headers: {} }),
    ).rejects.toBeInstanceOf(UpstreamOutcomeUnknownError);
    expect(calls).toBe(1);
  });

  it('public errors carry no credentials', async () => {
    const gone = await startServer(() => undefined);
    await gone.close();
    const error = await stack.transport
      .send(channel(gone.baseUrl), {
        method: 'POST',
        path: '/create',
        body: { key: 'x' },
        headers: { Authorization: 'Bearer sk-test-secret' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain('sk-test-secret');
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
