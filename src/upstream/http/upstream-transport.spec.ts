import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { FakeUpstream, sendJson, startFakeUpstream } from '../../../test/upstream/fake-upstream';
import { createTestUpstream } from '../../../test/upstream/test-upstream';
import { setFastPaths } from '../../platform/config/fast-paths';
import { UpstreamChannel, UpstreamOutcomeUnknownError, UpstreamUnavailableError } from '../upstream.types';
import type { UpstreamRequest } from './upstream-transport';

const POST: UpstreamRequest = { method: 'POST', path: '/create', body: { a: 1 }, headers: {} };
const GET: UpstreamRequest = { method: 'GET', path: '/task/1', headers: {} };

function channelAt(baseUrl: string, id = 'test-channel'): UpstreamChannel {
  return { id, family: 'ax', baseUrl, apiKey: 'sk-test-secret' };
}

// Every case in both modes of FAST_PATHS: the lean adapter and axios' own node adapter behave alike.
describe.each([
  ['on', true],
  ['off', false],
])('UpstreamTransport, fast paths %s', (_mode, on) => {
  let upstream: FakeUpstream;
  let stack: ReturnType<typeof createTestUpstream>;

  beforeAll(() => setFastPaths(on));
  afterAll(() => setFastPaths(true));
  beforeEach(async () => {
    upstream = await startFakeUpstream();
    stack = createTestUpstream();
  });
  afterEach(async () => {
    stack.close();
    await upstream.close();
  });

  it("sends through the lean adapter only when fast paths are on, else through axios' own (it asks for compression)", async () => {
    upstream.handle((_req, res) => sendJson(res, 200, { ok: true }));
    await stack.transport.send(channelAt(upstream.baseUrl), GET);
    expect(upstream.requests[0].headers['accept-encoding']).toBe(on ? 'identity' : 'gzip, compress, deflate, br');
  });

  it('returns answers below 500 with the body parsed, or as text when it is not JSON', async () => {
    upstream.handle((_req, res) => sendJson(res, 201, { ok: '5.0' }));
    await expect(stack.transport.send(channelAt(upstream.baseUrl), POST)).resolves.toEqual({
      status: 201,
      body: { ok: '5.0' },
    });
    upstream.handle((_req, res) => res.writeHead(400).end('<html>bad</html>'));
    await expect(stack.transport.send(channelAt(upstream.baseUrl), POST)).resolves.toEqual({
      status: 400,
      body: '<html>bad</html>',
    });
    expect(upstream.requests[0].body).toEqual({ a: 1 });
    expect(upstream.requests[0].headers['content-type']).toBe('application/json');
  });

  it('turns a 500 into UpstreamUnavailableError carrying the status', async () => {
    upstream.handle((_req, res) => sendJson(res, 500, { code: 'InternalError' }));
    const error = await stack.transport.send(channelAt(upstream.baseUrl), POST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect((error as UpstreamUnavailableError).httpStatus).toBe(500);
  });

  it('retries a GET after upstream faults, with back-off, and succeeds when the upstream recovers', async () => {
    let calls = 0;
    upstream.handle((_req, res) => (++calls < 3 ? sendJson(res, 503, {}) : sendJson(res, 200, { done: true })));
    await expect(stack.transport.send(channelAt(upstream.baseUrl), GET)).resolves.toEqual({
      status: 200,
      body: { done: true },
    });
    expect(upstream.requests).toHaveLength(3);
  });

  it('gives up on a GET after 1 + readRetries attempts', async () => {
    upstream.handle((_req, res) => sendJson(res, 500, {}));
    await expect(stack.transport.send(channelAt(upstream.baseUrl), GET)).rejects.toBeInstanceOf(
      UpstreamUnavailableError,
    );
    expect(upstream.requests).toHaveLength(1 + stack.options.readRetries);
  });

  it('never retries a POST', async () => {
    upstream.handle((_req, res) => sendJson(res, 500, {}));
    await expect(stack.transport.send(channelAt(upstream.baseUrl), POST)).rejects.toBeInstanceOf(
      UpstreamUnavailableError,
    );
    expect(upstream.requests).toHaveLength(1);
  });

  it('does not retry a GET answered with 4xx', async () => {
    upstream.handle((_req, res) => sendJson(res, 429, { code: 'Throttling' }));
    await expect(stack.transport.send(channelAt(upstream.baseUrl), GET)).resolves.toMatchObject({ status: 429 });
    expect(upstream.requests).toHaveLength(1);
  });

  it('reports a POST that was sent but never answered as OutcomeUnknown, within the time limit', async () => {
    stack.close();
    stack = createTestUpstream({ createTimeoutMs: 200 });
    upstream.handle(() => undefined); // hang
    const started = Date.now();
    await expect(stack.transport.send(channelAt(upstream.baseUrl), POST)).rejects.toBeInstanceOf(
      UpstreamOutcomeUnknownError,
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(upstream.requests).toHaveLength(1);
  });

  it('reports a GET that was never answered as Unavailable', async () => {
    stack.close();
    stack = createTestUpstream({ readTimeoutMs: 150, readRetries: 0 });
    upstream.handle(() => undefined);
    await expect(stack.transport.send(channelAt(upstream.baseUrl), GET)).rejects.toBeInstanceOf(
      UpstreamUnavailableError,
    );
  });

  it('reports a POST whose connection broke after it was sent as OutcomeUnknown', async () => {
    upstream.handle((_req, res) => res.socket?.destroy());
    await expect(stack.transport.send(channelAt(upstream.baseUrl), POST)).rejects.toBeInstanceOf(
      UpstreamOutcomeUnknownError,
    );
  });

  it('reports a POST that could not be written completely before the timeout as Unavailable (surely not accepted)', async () => {
    // A server that accepts the connection but never reads: the body stays stuck in the socket buffers.
    const sockets: net.Socket[] = [];
    const stuck = net.createServer((socket) => {
      socket.pause();
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => stuck.listen(0, '127.0.0.1', resolve));
    try {
      stack.close();
      stack = createTestUpstream({ createTimeoutMs: 300 });
      const { port } = stuck.address() as AddressInfo;
      const huge = { blob: 'x'.repeat(64 * 1024 * 1024) };
      const error = await stack.transport
        .send(channelAt(`http://127.0.0.1:${port}`), { ...POST, body: huge })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpstreamUnavailableError);
    } finally {
      sockets.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => stuck.close(() => resolve()));
    }
  });

  it('fails a POST that finds no free connection within the connect time limit then, as never sent', async () => {
    stack.close();
    stack = createTestUpstream({ connectTimeoutMs: 150, createTimeoutMs: 5_000 });
    // One socket to the upstream, taken by a call that hangs: the next call waits for it in the pool.
    stack.agents.http.maxSockets = 1;
    upstream.handle(() => undefined);
    const channel = channelAt(upstream.baseUrl);
    void stack.transport.send(channel, POST).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    const error = await stack.transport.send(channel, POST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).not.toBeInstanceOf(UpstreamOutcomeUnknownError);
    expect((error as Error).message).toContain('could not be sent within 150 ms');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(upstream.requests).toHaveLength(1);
  });

  it('reports a refused connection as Unavailable', async () => {
    const closed = await startFakeUpstream();
    await closed.close();
    await expect(stack.transport.send(channelAt(closed.baseUrl), POST)).rejects.toBeInstanceOf(
      UpstreamUnavailableError,
    );
  });

  it('opens the channel breaker after consecutive upstream faults and then fails fast without calling', async () => {
    upstream.handle((_req, res) => sendJson(res, 500, {}));
    const channel = channelAt(upstream.baseUrl);
    for (let i = 0; i < stack.options.breakerConsecutiveFailures; i++) {
      await expect(stack.transport.send(channel, POST)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    }
    expect(stack.breakers.stateOf(channel.id)).toBe('open');
    expect(stack.breakers.isAcceptingCalls(channel.id)).toBe(false);
    await expect(stack.transport.send(channel, POST)).rejects.toThrow(/circuit open/);
    expect(upstream.requests).toHaveLength(stack.options.breakerConsecutiveFailures);
  });

  it('lets a probe through once half-open and closes again when it succeeds', async () => {
    upstream.handle((_req, res) => sendJson(res, 500, {}));
    const channel = channelAt(upstream.baseUrl);
    for (let i = 0; i < stack.options.breakerConsecutiveFailures; i++)
      await stack.transport.send(channel, POST).catch(() => undefined);
    upstream.handle((_req, res) => sendJson(res, 200, { ok: true }));
    await new Promise((resolve) => setTimeout(resolve, stack.options.breakerHalfOpenAfterMs + 20));
    expect(stack.breakers.isAcceptingCalls(channel.id)).toBe(true);
    await expect(stack.transport.send(channel, POST)).resolves.toMatchObject({ status: 200 });
    expect(stack.breakers.stateOf(channel.id)).toBe('closed');
  });

  it('never opens the breaker on 4xx rejections, and a 4xx breaks a run of faults', async () => {
    const channel = channelAt(upstream.baseUrl);
    upstream.handle((_req, res) => sendJson(res, 400, { code: 'InvalidParameter' }));
    for (let i = 0; i < stack.options.breakerConsecutiveFailures * 3; i++) await stack.transport.send(channel, POST);
    expect(stack.breakers.stateOf(channel.id)).toBe('closed');

    const statuses = [500, 500, 403, 500, 500];
    upstream.handle((_req, res) => sendJson(res, statuses.shift() ?? 200, {}));
    for (let i = 0; i < 5; i++) await stack.transport.send(channel, POST).catch(() => undefined);
    expect(stack.breakers.stateOf(channel.id)).toBe('closed');
  });

  it('keeps one breaker per channel', async () => {
    upstream.handle((_req, res) => sendJson(res, 500, {}));
    const failing = channelAt(upstream.baseUrl, 'failing');
    for (let i = 0; i < stack.options.breakerConsecutiveFailures; i++)
      await stack.transport.send(failing, POST).catch(() => undefined);
    upstream.handle((_req, res) => sendJson(res, 200, {}));
    await expect(stack.transport.send(channelAt(upstream.baseUrl, 'healthy'), POST)).resolves.toMatchObject({
      status: 200,
    });
    expect(stack.breakers.stateOf('failing')).toBe('open');
  });

  it('adds the time spent upstream to the timing out-parameter, also when the call fails', async () => {
    upstream.handle((_req, res) => setTimeout(() => sendJson(res, 200, {}), 60));
    const timing = { upstreamMs: 0 };
    await stack.transport.send(channelAt(upstream.baseUrl), { ...POST, timing });
    expect(timing.upstreamMs).toBeGreaterThanOrEqual(50);
    const first = timing.upstreamMs;

    upstream.handle((_req, res) => setTimeout(() => sendJson(res, 500, {}), 30));
    await stack.transport.send(channelAt(upstream.baseUrl), { ...POST, timing }).catch(() => undefined);
    expect(timing.upstreamMs).toBeGreaterThanOrEqual(first + 25);
  });

  it('reuses the keep-alive connection between calls', async () => {
    const channel = channelAt(upstream.baseUrl);
    await stack.transport.send(channel, GET);
    await stack.transport.send(channel, GET);
    expect(upstream.requests[1].remotePort).toBe(upstream.requests[0].remotePort);
  });
});
