import express from 'express';
import type { Request, Response } from 'express';
import { request as httpRequest } from 'http';
import { AddressInfo, Socket, connect } from 'net';
import request from 'supertest';
import { ErrorWriter } from '../errors';
import { AccessLog } from '../logging/access-log';
import { HttpMetrics } from '../metrics/http-metrics';
import { MetricsService } from '../metrics/metrics.service';
import { gatewayHttpMiddleware } from './gateway-http.middleware';
import { jsonBodyReader } from './json-body';
import { addUpstreamTime, contextOf } from './request-context';
import { captureLog } from '../../../test/support/log-capture';

/** An Express app with only the gateway's middleware and a few routes that show what they were given. */
function gatewayApp(options: { limitBytes?: number; level?: string } = {}) {
  const app = express();
  const metrics = new MetricsService();
  const log = captureLog(options.level);
  app.use(
    gatewayHttpMiddleware(app, {
      readBody: jsonBodyReader(options.limitBytes ?? 1024, new ErrorWriter()),
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

/** A JSON POST without Content-Length (sent chunked), as streaming clients send it. */
function postChunked(app: express.Express, text: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
      const req = httpRequest({ port, method: 'POST', path: '/echo/1', headers }, (res) => {
        let answer = '';
        res.on('data', (c) => (answer += c));
        res.on('end', () => {
          server.close();
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(answer) });
        });
      });
      req.on('error', reject);
      req.write(text); // written before end(): no Content-Length, so the body goes chunked
      req.end();
    });
  });
}

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

  it('reads JSON bodies, and the handler still runs in the request context', async () => {
    const { app } = gatewayApp();
    const auth = { Authorization: 'Bearer k' };
    const plain = await request(app)
      .post('/echo/1')
      .set(auth)
      .set('Content-Type', 'application/json')
      .send('{"a":[1,{"b":"c"}]}')
      .expect(200);
    expect(plain.body).toEqual({ body: { a: [1, { b: 'c' }] }, requestId: plain.headers['x-request-id'] });
    const withBom = await request(app)
      .post('/echo/1')
      .set(auth)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send('\ufeff"text"')
      .expect(200);
    expect(withBom.body.body).toBe('text');
    // Other spellings go through body-parser.
    const other = await request(app)
      .post('/echo/1')
      .set(auth)
      .set('Content-Type', 'Application/JSON;  Charset="UTF-8"')
      .send('{"x":1}')
      .expect(200);
    expect(other.body).toEqual({ body: { x: 1 }, requestId: other.headers['x-request-id'] });
  });

  it('says where a body stops being JSON, without quoting it', async () => {
    const { app } = gatewayApp();
    const send = (text: string) =>
      request(app).post('/echo/1').set('Authorization', 'Bearer k').set('Content-Type', 'application/json').send(text);
    const cases: Array<[string, string]> = [
      ['{"model": "secret-value",}', "expected a double-quoted property name, found '}' at line 1, column 26"],
      [
        '{\n  "model": "x"\n  "prompt": "y"\n}',
        "expected ',' or '}' after a property value, found '\"' at line 3, column 3",
      ],
      ['{"model": tru}', "expected 'true', found '}' at line 1, column 14"],
      ['{"a": 1} trailing', "unexpected 't' after the JSON value at line 1, column 10"],
    ];
    for (const [text, where] of cases) {
      const res = await send(text).expect(400);
      expect(res.body.error.message).toContain(where);
      expect(res.body.error.message).not.toContain('secret-value');
    }
  });

  it('says the body is empty when it is, with or without a length, chunked or blank', async () => {
    const { app } = gatewayApp();
    const empty = { code: 'invalid_request', message: 'The request body is empty; send a JSON object.', param: null };
    const json = () =>
      request(app).post('/echo/1').set('Authorization', 'Bearer k').set('Content-Type', 'application/json');
    expect((await json().send('').expect(400)).body.error).toEqual(expect.objectContaining(empty));
    expect((await json().send('  \n ').expect(400)).body.error).toEqual(expect.objectContaining(empty));
    expect((await json().expect(400)).body.error).toEqual(expect.objectContaining(empty));
    const chunked = await postChunked(app, '');
    expect(chunked.status).toBe(400);
    expect(chunked.body.error).toEqual(expect.objectContaining(empty));
    // A chunked body with content is read as usual.
    expect(await postChunked(app, '{"a":1}')).toMatchObject({ status: 200, body: { body: { a: 1 } } });
    // The wrong type on an empty body is still the type's error.
    const text = await request(app).post('/echo/1').set('Authorization', 'Bearer k').set('Content-Type', 'text/plain');
    expect(text.body.error.message).toMatch(/Content-Type/);
  });

  it('refuses what it cannot read with the gateway errors', async () => {
    const { app } = gatewayApp({ limitBytes: 64 });
    const auth = { Authorization: 'Bearer k' };
    const broken = await request(app)
      .post('/echo/1')
      .set(auth)
      .set('Content-Type', 'application/json')
      .send('{"a":')
      .expect(400);
    expect(broken.body.error).toMatchObject({
      code: 'invalid_request',
      message:
        'The request body is not valid JSON: expected a value, found the end of the body at line 1, column 6 (character 6).',
      param: null,
    });
    const text = await request(app).post('/echo/1').set(auth).set('Content-Type', 'text/plain').send('x').expect(400);
    expect(text.body.error.message).toMatch(/Content-Type/);
    await request(app)
      .post('/echo/1')
      .set(auth)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ a: 'x'.repeat(100) }))
      .expect(413);
    const nul = await request(app)
      .post('/echo/1')
      .set(auth)
      .set('Content-Type', 'application/json')
      .send('{"a":"x\\u0000"}')
      .expect(400);
    expect(nul.body.error.param).toBe('a');
    const charset = await request(app)
      .post('/echo/1')
      .set(auth)
      .set('Content-Type', 'application/json; charset=latin1')
      .send('{}')
      .expect(400);
    expect(charset.body.error.message).toBe('Unsupported body encoding or charset.');
    await request(app).get('/items/%00').expect(400);
    // Without a key the body is not read: the route's guard answers 401 first.
    const keyless = await request(app).post('/echo/1').set('Content-Type', 'text/plain').send('x').expect(200);
    expect(keyless.body.body).toBeNull();
  });
});
