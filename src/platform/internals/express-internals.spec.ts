import express from 'express';
import * as http from 'http';
import { Socket } from 'net';
import request from 'supertest';
import { beforeHeaders, beforeHeadersOfEveryResponse, expressMessageClasses } from './express-internals';

// Contract: what the gateway relies on in the installed Express.
describe('Express internals', () => {
  it("gives each request and response the app's own `request` / `response` objects as prototypes", async () => {
    const app = express();
    app.get('/', (req, res) => {
      res.json({ req: Object.getPrototypeOf(req) === app.request, res: Object.getPrototypeOf(res) === app.response });
    });
    expect((await request(app).get('/').expect(200)).body).toEqual({ req: true, res: true });
    // And app.request / app.response inherit from Node's own classes (Express's methods over Node's).
    expect(Object.getPrototypeOf(Object.getPrototypeOf(app.request))).toBe(http.IncomingMessage.prototype);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(app.response))).toBe(http.ServerResponse.prototype);
  });
});

describe('expressMessageClasses', () => {
  it("makes Node's request and response objects whose prototypes are the app's own", () => {
    const app = express();
    const { IncomingMessage, ServerResponse } = expressMessageClasses(app);
    const req = new IncomingMessage(new Socket());
    req.headers = { 'x-probe': 'yes' };
    const res = new ServerResponse(req);

    expect(Object.getPrototypeOf(req)).toBe(app.request);
    expect(Object.getPrototypeOf(res)).toBe(app.response);
    // Still Node's objects, with Express's methods on them.
    expect(req).toBeInstanceOf(http.IncomingMessage);
    expect(res).toBeInstanceOf(http.ServerResponse);
    expect((req as express.Request).get('x-probe')).toBe('yes');
    expect(typeof (res as express.Response).status).toBe('function');
    expect(res.statusCode).toBe(200);
  });
});

describe.each([
  ['from the app’s response prototype', true],
  ['per response (fast paths off)', false],
])('beforeHeaders, %s', (_how, everyResponse) => {
  it('runs the hook once per response, just before its headers go out', async () => {
    const app = express();
    const hook = (res: http.ServerResponse) => res.setHeader('X-Hooked', String(res.statusCode));
    if (everyResponse) beforeHeadersOfEveryResponse(app, hook);
    app.get('/', (_req, res) => {
      if (!everyResponse) beforeHeaders(res, hook);
      res.status(201).json({ ok: true });
    });
    const answer = await request(app).get('/').expect(201);
    expect(answer.headers['x-hooked']).toBe('201');
    expect(answer.body).toEqual({ ok: true });
    // Another app's responses are left alone.
    const other = express();
    other.get('/', (_req, res) => res.json({}));
    expect((await request(other).get('/')).headers['x-hooked']).toBeUndefined();
  });
});
