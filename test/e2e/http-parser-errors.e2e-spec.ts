import { AddressInfo, Socket, connect } from 'net';
import { Harness, startGateway } from '../support/gateway-harness';

/**
 * What Node's HTTP parser refuses before the app sees a request (headers or body too slow, headers
 * too large, malformed HTTP) and an `Expect` it cannot meet are answered, as every error of the
 * gateway, with the gateway error object, and the connection is closed.
 */
describe('HTTP the parser refuses', () => {
  let gw: Harness;
  let port: number;
  beforeAll(async () => {
    gw = await startGateway({ env: { CLIENT_HEADERS_TIMEOUT_MS: '400', CLIENT_REQUEST_TIMEOUT_MS: '800' } });
    await gw.app.listen(0, '127.0.0.1');
    port = (gw.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => gw.close());

  interface Answer {
    status: number;
    headers: Record<string, string>;
    body: any;
    closedAfterMs: number;
  }

  /** Writes `bytes` on a new connection, then nothing more; what the server answered once it closed the connection. */
  function exchange(bytes: string | Buffer): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const chunks: Buffer[] = [];
      const socket: Socket = connect(port, '127.0.0.1', () => socket.write(bytes));
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('latin1');
        const split = text.indexOf('\r\n\r\n');
        const [statusLine, ...lines] = text.slice(0, split < 0 ? text.length : split).split('\r\n');
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]);
        if (!status) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
        const headers = Object.fromEntries(
          lines.map((line) => [
            line.slice(0, line.indexOf(':')).toLowerCase(),
            line.slice(line.indexOf(':') + 1).trim(),
          ]),
        );
        const raw = split < 0 ? '' : text.slice(split + 4);
        let body: unknown = raw;
        try {
          body = JSON.parse(raw);
        } catch {
          // Kept as text: the expectation below shows it.
        }
        resolve({ status, headers, body, closedAfterMs: Date.now() - started });
      });
    });
  }

  const errorObject = (status: number, code: string) => ({
    status,
    closes: 'close',
    type: 'application/json; charset=utf-8',
    body: {
      error: { message: expect.any(String), type: 'invalid_request_error', param: null, code },
    },
  });
  const shape = (answer: Answer) => ({
    status: answer.status,
    closes: answer.headers.connection,
    type: answer.headers['content-type'],
    body: answer.body,
  });

  it('a client too slow with its headers, or with its body, is 408 invalid_request', async () => {
    const [headers, body] = await Promise.all([
      exchange('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: '),
      exchange(
        'POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":',
      ),
    ]);
    expect(shape(headers)).toEqual(errorObject(408, 'invalid_request'));
    expect(headers.body.error.message).toBe(
      'The request did not arrive in time: its headers are due within 0.4 s, the whole request within 0.8 s.',
    );
    expect(headers.closedAfterMs).toBeLessThan(5000);
    expect(shape(body)).toEqual(errorObject(408, 'invalid_request'));
    expect(body.closedAfterMs).toBeLessThan(5000);
    // The request the body belonged to keeps its ID.
    expect(body.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ['headers over 16 KiB', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    [
      'too many headers',
      `GET /healthz HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 2000 }, (_, i) => `X-H${i}: 1234567890\r\n`).join('')}\r\n`,
    ],
    ['a URL over 16 KiB', `GET /healthz?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ])('%s: 431 request_too_large', async (_what, bytes) => {
    const answer = await exchange(bytes);
    expect(shape(answer)).toEqual(errorObject(431, 'request_too_large'));
    expect(answer.body.error.message).toBe('The request line and headers exceed 16 KiB.');
  });

  it.each([
    ['a bad chunk size', 'POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
    [
      'Transfer-Encoding with Content-Length',
      'POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    ['a NUL in a header', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n'],
    ['a control character in a header', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n'],
    ['a folded header', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n'],
    ['an unknown method', 'FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['no Host', 'GET /healthz HTTP/1.1\r\n\r\n'],
  ])('%s: 400 invalid_request', async (_what, bytes) => {
    const answer = await exchange(bytes);
    expect(shape(answer)).toEqual(errorObject(400, 'invalid_request'));
  });

  it('says what is wrong, and on a family route carries its native fields', async () => {
    const method = await exchange('FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(method.body.error.message).toBe('The request is not valid HTTP/1.1: Invalid method encountered.');
    const host = await exchange('GET /healthz HTTP/1.1\r\n\r\n');
    expect(host.body.error.message).toBe('An HTTP/1.1 request must carry a Host header.');
    const kl = await exchange('GET /kl/v1/videos/omni-video/x HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n');
    expect(kl.status).toBe(400);
    expect(kl.body).toMatchObject({ code: 1201, request_id: kl.headers['x-request-id'], data: null });
    expect(kl.body.error).toMatchObject({ code: 'invalid_request' });
  });

  it('an Expect other than 100-continue is 417 with the error object', async () => {
    const answer = await exchange('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n');
    expect(shape(answer)).toEqual(errorObject(417, 'invalid_request'));
    expect(answer.body.error.message).toBe('Only "Expect: 100-continue" is supported.');
    // The well-formed requests around are served as before.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  });
});
