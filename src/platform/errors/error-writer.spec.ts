import { IncomingMessage } from 'http';
import { Socket } from 'net';
import type { Request, Response } from 'express';
import { ErrorWriter } from './error-writer';
import { GatewayError } from './gateway-error';

/** A request whose declared body is still to arrive, as the server hands it over. */
function requestWithBody(length: number): Request {
  const req = new IncomingMessage(new Socket()) as Request;
  req.headers = { 'content-length': String(length) };
  Object.assign(req, { path: '/no/such/route' });
  return req;
}

interface FakeResponse {
  headersSent: boolean;
  destroyed: boolean;
  status: jest.Mock;
  json: jest.Mock;
  setHeader: jest.Mock;
  destroy: jest.Mock;
}

function fakeResponse(json: (body: unknown) => void): FakeResponse {
  const res: FakeResponse = {
    headersSent: false,
    destroyed: false,
    status: jest.fn(() => res),
    json: jest.fn(json),
    setHeader: jest.fn(),
    destroy: jest.fn(() => void (res.destroyed = true)),
  };
  return res;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ErrorWriter', () => {
  it('answers an error found before the body was read once the body has arrived', async () => {
    const req = requestWithBody(4);
    const res = fakeResponse(() => undefined);
    new ErrorWriter().write(req, res as unknown as Response, new GatewayError(404, 'not_found', 'No route.'));
    await settle();
    expect(res.json).not.toHaveBeenCalled();
    req.push(Buffer.from('abcd'));
    req.push(null);
    await settle();
    expect(res.status).toHaveBeenCalledWith(404);
    expect(res.json).toHaveBeenCalledWith(
      expect.objectContaining({ error: expect.objectContaining({ code: 'not_found' }) }),
    );
  });

  it('drops the connection, not the process, when that late answer cannot be written', async () => {
    const req = requestWithBody(1);
    const res = fakeResponse(() => {
      throw new Error('socket gone');
    });
    new ErrorWriter().write(req, res as unknown as Response, new GatewayError(404, 'not_found', 'No route.'));
    req.push(Buffer.from('a'));
    req.push(null);
    await settle();
    await settle();
    expect(res.json).toHaveBeenCalled();
    expect(res.destroy).toHaveBeenCalled();
  });
});
