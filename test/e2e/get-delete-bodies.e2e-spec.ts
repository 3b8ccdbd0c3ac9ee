import { request as httpRequest } from 'http';
import { AddressInfo } from 'net';
import { Harness, TestAccount, startGateway } from '../support/gateway-harness';

const MiB = 1024 * 1024;

/**
 * A GET or DELETE takes no body: one sent anyway is dropped, and one over the small limit is 413
 * whether its Content-Length declares it or it arrives chunked, its bytes counted.
 */
describe('bodies sent with a GET or DELETE', () => {
  let gw: Harness;
  let port: number;
  let caller: TestAccount;
  beforeAll(async () => {
    gw = await startGateway();
    await gw.app.listen(0, '127.0.0.1');
    port = (gw.app.getHttpServer().address() as AddressInfo).port;
    caller = await gw.admin.account({ models: ['vdq3'] });
  });
  afterAll(() => gw.close());

  /** Sends `bytes` of body in 64 KiB chunks (chunked unless `length`), until they are sent or the answer comes. */
  function send(
    method: string,
    path: string,
    bytes: number,
    length?: 'declared',
  ): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${caller.key}` };
      // Node's client sends a GET's body chunked only when told to.
      headers[length ? 'Content-Length' : 'Transfer-Encoding'] = length ? String(bytes) : 'chunked';
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers });
      let answered = false;
      req.on('error', reject);
      req.on('response', (res) => {
        answered = true;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          // Its connection goes with it, rather than stay in the client's pool.
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
        });
      });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let left = bytes;
      const write = (): void => {
        while (left > 0 && !answered) {
          const part = chunk.subarray(0, Math.min(chunk.length, left));
          left -= part.length;
          if (!req.write(part)) return void req.once('drain', write);
        }
        req.end();
      };
      write();
    });
  }

  const TOO_LARGE = { error: expect.objectContaining({ code: 'request_too_large', type: 'invalid_request_error' }) };

  it.each([
    ['GET /gateway/v1/me, 2 MiB chunked', 'GET', '/gateway/v1/me', 2 * MiB],
    ['GET /gateway/v1/me, 100 MiB chunked', 'GET', '/gateway/v1/me', 100 * MiB],
    ['DELETE /v1/videos/x, 100 MiB chunked', 'DELETE', '/v1/videos/x', 100 * MiB],
  ])('%s: 413 request_too_large', async (_what, method, path, bytes) => {
    const answer = await send(method, path, bytes);
    expect(answer).toEqual({ status: 413, body: TOO_LARGE });
  });

  it('is 413 by its Content-Length too, and a small body is dropped and the request served', async () => {
    expect(await send('GET', '/gateway/v1/me', 2 * MiB, 'declared')).toEqual({ status: 413, body: TOO_LARGE });
    expect((await send('GET', '/gateway/v1/me', 10 * 1024)).status).toBe(200);
    expect((await send('DELETE', '/v1/videos/x', 10 * 1024)).status).toBe(404);
  });
});
