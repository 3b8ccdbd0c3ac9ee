import express from 'express';
import * as http from 'http';
import { Socket } from 'net';
import { expressMessageClasses } from './express-message-classes';

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
