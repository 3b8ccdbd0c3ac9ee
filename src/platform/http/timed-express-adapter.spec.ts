import { Controller, Get, Header, HttpCode, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'http';
import request from 'supertest';
import { TimedExpressAdapter } from './timed-express-adapter';

@Controller()
class AnswersController {
  @Get('object')
  object() {
    return { a: 'é', list: [1, 2] };
  }

  @Get('array')
  array() {
    return [{ id: 1 }];
  }

  @Get('text')
  text() {
    return 'plain';
  }

  @Get('typed')
  @Header('Content-Type', 'text/plain; version=0.0.4')
  typed() {
    return 'metric 1';
  }

  @Get('none')
  @HttpCode(204)
  none() {
    return { ignored: true };
  }
}

@Module({ controllers: [AnswersController] })
class AnswersModule {}

describe('TimedExpressAdapter replies', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await NestFactory.create(AnswersModule, new TimedExpressAdapter({ headersMs: 1000, requestMs: 2000 }), {
      logger: false,
    });
    app.getHttpAdapter().getInstance().set('etag', false);
    await app.init();
  });
  afterAll(() => app.close());

  it('writes object answers as Express res.json would', async () => {
    const res = await request(app.getHttpServer()).get('/object').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify({ a: 'é', list: [1, 2] }))));
    expect(res.body).toEqual({ a: 'é', list: [1, 2] });
    expect((await request(app.getHttpServer()).get('/array').expect(200)).body).toEqual([{ id: 1 }]);
  });

  it('leaves the rest to Express: strings, a chosen Content-Type, HEAD, no-body statuses, conditional requests', async () => {
    const text = await request(app.getHttpServer()).get('/text').expect(200);
    expect(text.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await request(app.getHttpServer()).get('/typed').expect(200)).headers['content-type']).toBe(
      'text/plain; charset=utf-8; version=0.0.4',
    );
    const head = await request(app.getHttpServer()).head('/object').expect(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify({ a: 'é', list: [1, 2] }))));
    expect(head.text).toBeUndefined();
    const none = await request(app.getHttpServer()).get('/none').expect(204);
    expect(none.headers['content-type']).toBeUndefined();
    // Express answers `If-None-Match: *` with 304 (fresh): still so.
    await request(app.getHttpServer()).get('/object').set('If-None-Match', '*').expect(304);
  });
});

describe('TimedExpressAdapter server', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await NestFactory.create(AnswersModule, new TimedExpressAdapter({ headersMs: 1000, requestMs: 2000 }), {
      logger: false,
    });
    await app.init();
  });
  afterAll(() => app.close());

  it("builds each request and response with the Express app's prototypes before Express sees them", async () => {
    const express = app.getHttpAdapter().getInstance();
    const server = app.getHttpServer() as Server;
    const seen: Array<[unknown, unknown]> = [];
    const record = (req: IncomingMessage, res: ServerResponse) =>
      seen.push([Object.getPrototypeOf(req), Object.getPrototypeOf(res)]);
    // Ahead of Express's own listener: what the server built, before Express's setPrototypeOf.
    server.prependListener('request', record);
    try {
      const res = await request(server).get('/object').expect(200);
      expect(res.body).toEqual({ a: 'é', list: [1, 2] });
    } finally {
      server.removeListener('request', record);
    }
    expect(seen).toHaveLength(1);
    expect(seen[0][0]).toBe(express.request);
    expect(seen[0][1]).toBe(express.response);
  });
});
