import { AddressInfo, Socket, connect } from 'net';
import { ADMIN_TOKEN, Harness, startGateway } from '../support/gateway-harness';

/** Slow-header and slow-body clients are cut off, and meanwhile everyone else is served. */
describe('slow clients', () => {
  let gw: Harness;
  let port: number;
  beforeAll(async () => {
    gw = await startGateway({ env: { CLIENT_HEADERS_TIMEOUT_MS: '400', CLIENT_REQUEST_TIMEOUT_MS: '800' } });
    await gw.app.listen(0, '127.0.0.1');
    port = (gw.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => gw.close());

  /**
   * Opens a connection, writes `first`, then nothing more; resolves with what the server said and how long until it
   * closed.
   */
  function stall(first: string): Promise<{ answer: string; closedAfterMs: number }> {
    return new Promise((resolve) => {
      const started = Date.now();
      let answer = '';
      const socket: Socket = connect(port, '127.0.0.1', () => socket.write(first));
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('close', () => resolve({ answer, closedAfterMs: Date.now() - started }));
      socket.on('error', () => undefined);
    });
  }

  it('cuts off a client that never finishes its headers, and one that never finishes its body', async () => {
    const slowHeaders = stall('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const slowBody = stall(
      `POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`,
    );
    // Others are served while both stall.
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(ok.status).toBe(200);
    const [headers, body] = await Promise.all([slowHeaders, slowBody]);
    expect(headers.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(headers.closedAfterMs).toBeLessThan(5000);
    expect(body.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(body.closedAfterMs).toBeLessThan(5000);
  });

  it('keeps an idle keep-alive connection open well past the slow-client deadlines (65 s by default, above load balancers’ 60 s)', async () => {
    expect(gw.app.getHttpServer().keepAliveTimeout).toBe(65_000);
    // Two requests on one connection, idle in between for longer than the headers and request deadlines.
    const answers = await new Promise<string>((resolve) => {
      let seen = '';
      const socket: Socket = connect(port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
      socket.on('data', (chunk) => {
        seen += chunk.toString();
        if ((seen.match(/HTTP\/1\.1 200/g) ?? []).length === 1 && !seen.includes('#second')) {
          seen += '#second';
          setTimeout(() => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'), 1200);
        }
        if ((seen.match(/HTTP\/1\.1 200/g) ?? []).length === 2) socket.end();
      });
      socket.on('close', () => resolve(seen));
      socket.on('error', () => undefined);
    });
    expect((answers.match(/HTTP\/1\.1 200/g) ?? []).length).toBe(2);
  });
});
