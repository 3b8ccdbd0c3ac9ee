import { Controller, Get, Header, HttpCode, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IncomingMessage, Server, ServerResponse } from 'http';
import request from 'supertest';
import { setFastPaths } from '../config/fast-paths';
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
  let viaResJson = 0;
  beforeAll(async () => {
    app = await NestFactory.create(AnswersModule, new TimedExpressAdapter({ headersMs: 1000, requestMs: 2000 }), {
      logger: false,
    });
    const express = app.getHttpAdapter().getInstance();
    express.set('etag', false);
    const json = express.response.json;
    express.response.json = function (this: unknown, ...args: unknown[]) {
      viaResJson++;
      return json.apply(this, args as [unknown]);
    };
    await app.init();
  });
  afterAll(() => app.close());

  it('writes object answers through res.json when no rewriter is set', async () => {
    const before = viaResJson;
    await request(app.getHttpServer()).get('/object').expect(200);
    expect(viaResJson - before).toBe(1);
  });

  it('applies the answer rewriter to JSON answers only, with the same headers', async () => {
    (app.getHttpAdapter() as TimedExpressAdapter).setAnswerRewriter((_req, json) => json.replace('é', 'e'));
    try {
      const res = await request(app.getHttpServer()).get('/object').expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify({ a: 'e', list: [1, 2] }))));
      expect(res.body).toEqual({ a: 'e', list: [1, 2] });
      expect((await request(app.getHttpServer()).get('/text').expect(200)).text).toBe('plain');
    } finally {
      (app.getHttpAdapter() as TimedExpressAdapter).setAnswerRewriter(undefined);
    }
  });

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

describe.each([
  ['on', true],
  ['off', false],
])('TimedExpressAdapter server, fast paths %s', (_mode, on) => {
  let app: INestApplication;
  beforeAll(async () => {
    setFastPaths(on);
    app = await NestFactory.create(AnswersModule, new TimedExpressAdapter({ headersMs: 1000, requestMs: 2000 }), {
      logger: false,
    });
    await app.init();
  });
  afterAll(async () => {
    setFastPaths(true);
    await app.close();
  });

  // Contract with the installed @nestjs/platform-express: the server `initHttpServer` makes is the one Nest serves on.
  it('is the server Nest serves on, with the client deadlines', () => {
    const server = app.getHttpServer() as Server;
    expect(server.headersTimeout).toBe(1000);
    expect(server.requestTimeout).toBe(2000);
  });

  it("builds each request and response with the Express app's prototypes before Express sees them (fast paths on), else Node's", async () => {
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
    expect(seen[0][0]).toBe(on ? express.request : IncomingMessage.prototype);
    expect(seen[0][1]).toBe(on ? express.response : ServerResponse.prototype);
  });
});
