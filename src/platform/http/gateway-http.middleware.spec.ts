import express from 'express';
import type { Request, Response } from 'express';
import { AddressInfo, Socket, connect } from 'net';
import request from 'supertest';
import { ErrorWriter } from '../errors';
import { AccessLog } from '../logging/access-log';
import { HttpMetrics } from '../metrics/http-metrics';
import { MetricsService } from '../metrics/metrics.service';
import { gatewayHttpMiddleware } from './gateway-http.middleware';
import { addUpstreamTime, contextOf } from './request-context';
import { captureLog } from '../../../test/support/log-capture';

/** An Express app with only the gateway's middleware and a few routes that show what they were given. */
function gatewayApp(options: { level?: string } = {}) {
  const app = express();
  const metrics = new MetricsService();
  const log = captureLog(options.level);
  app.use(
    gatewayHttpMiddleware(app, {
      errors: new ErrorWriter(),
      metrics: new HttpMetrics(metrics),
      accessLog: new AccessLog(log.logger),
    }),
  );
  // What a handler sees: its body and, after the body was read, the request's context.
  const echo = (req: Request, res: Response) =>
    res.json({ body: req.body ?? null, requestId: contextOf(req).requestId });
  app.post('/echo/:id', echo);
  app.get('/items/:id', (req, res) => {
    addUpstreamTime(contextOf(req), 2.5);
    res.json({ id: req.params.id });
  });
  app.get('/slow', () => undefined);
  app.get('/healthz', (_req, res) => res.json({ status: 'ok' }));
  return { app, metrics, lines: log.lines };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('gateway HTTP middleware', () => {
  it('gives every response X-Request-Id (a sane incoming one kept) and Server-Timing', async () => {
    const { app } = gatewayApp();
    const plain = await request(app).get('/healthz').expect(200);
    expect(plain.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(plain.headers['server-timing']).toMatch(/^gw;dur=\d+\.\d$/);
    const kept = await request(app).get('/items/1').set('X-Request-Id', 'trace-abc-12345').expect(200);
    expect(kept.headers['x-request-id']).toBe('trace-abc-12345');
    expect(kept.headers['server-timing']).toMatch(/^gw;dur=\d+\.\d, upstream;dur=2\.5$/);
    const insane = await request(app).get('/healthz').set('X-Request-Id', 'bad id!').expect(200);
    expect(insane.headers['x-request-id']).not.toBe('bad id!');
    // Unmatched routes too.
    const missing = await request(app).get('/nothing').expect(404);
    expect(missing.headers['server-timing']).toMatch(/^gw;dur=/);
  });

  it('counts requests by route pattern, method and status', async () => {
    const { app, metrics } = gatewayApp();
    await request(app).get('/items/1').expect(200);
    await request(app).get('/items/2').expect(200);
    await request(app).head('/items/3').expect(200);
    await request(app).get('/nothing').expect(404);
    await flush();
    const text = await metrics.registry.metrics();
    expect(text).toContain('gateway_http_requests_total{method="GET",route="/items/:id",status="200"} 2');
    expect(text).toContain('gateway_http_requests_total{method="HEAD",route="/items/:id",status="200"} 1');
    expect(text).toContain('gateway_http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(text).toContain('gateway_http_request_duration_seconds_count{method="GET",route="/items/:id"} 2');
  });

  it('writes one access line per request when it ends (aborted ones too), none for health', async () => {
    const { app, lines } = gatewayApp();
    await request(app).get('/items/7?token=secret').set('X-Request-Id', 'trace-abc-12345').expect(200);
    await request(app).get('/healthz').expect(200);
    const server = app.listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as AddressInfo;
      // A client that goes away before the (never coming) answer.
      await new Promise<void>((resolve) => {
        const socket: Socket = connect(port, '127.0.0.1', () => socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n'));
        setTimeout(() => socket.destroy(), 100);
        socket.on('close', () => resolve());
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      server.close();
    }
    const written = lines();
    expect(written).toHaveLength(2);
    expect(written[0]).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/items/7?token=[redacted]', id: 'trace-abc-12345' },
      route: '/items/:id',
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(written[1]).toMatchObject({ msg: 'request aborted', req: { url: '/slow' }, route: '/slow' });
  });

  it('writes no access line when the level is above info', async () => {
    const { app, lines } = gatewayApp({ level: 'warn' });
    await request(app).get('/items/1').expect(200);
    expect(lines()).toHaveLength(0);
  });

  it('refuses a URL with a NUL character, raw or encoded, for every method', async () => {
    const { app } = gatewayApp();
    const get = await request(app).get('/items/%00').expect(400);
    expect(get.body.error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/NUL/) });
    await request(app).post('/echo/%00').set('Content-Type', 'application/json').send('{}').expect(400);
  });

  it('reads no body: that is the route body step’s, once the caller is known', async () => {
    const { app } = gatewayApp();
    const res = await request(app).post('/echo/1').set('Content-Type', 'application/json').send('{"a":1}').expect(200);
    expect(res.body.body).toBeNull();
  });
});
