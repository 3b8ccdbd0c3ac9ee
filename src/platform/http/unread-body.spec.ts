import { IncomingMessage } from 'http';
import { Socket } from 'net';
import { discardBody, hasUnreadBody } from './unread-body';

/** A request as the server hands it over: headers parsed, its body still to come from the socket. */
function incoming(headers: Record<string, string>): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.headers = headers;
  return req;
}

describe('unread bodies', () => {
  it('counts a declared length or a chunked body as unread until it is complete', () => {
    expect(hasUnreadBody(incoming({}))).toBe(false);
    expect(hasUnreadBody(incoming({ 'content-length': '0' }))).toBe(false);
    expect(hasUnreadBody(incoming({ 'content-length': '12' }))).toBe(true);
    expect(hasUnreadBody(incoming({ 'transfer-encoding': 'chunked' }))).toBe(true);
    const done = incoming({ 'content-length': '12' });
    done.complete = true;
    expect(hasUnreadBody(done)).toBe(false);
  });

  it('waits for the body to arrive, drops it, and waits once however often it is asked', async () => {
    const req = incoming({ 'content-length': '6' });
    const first = discardBody(req);
    expect(discardBody(req)).toBe(first);
    expect(hasUnreadBody(req)).toBe(false);
    let over = false;
    void first.then(() => (over = true));
    req.push(Buffer.from('abc'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(over).toBe(false);
    req.push(Buffer.from('def'));
    req.push(null);
    expect(await first).toBe(6);
    expect(req.readableEnded).toBe(true);
  });

  it('does not wait for a body declared over 64 MiB', async () => {
    const req = incoming({ 'content-length': String(65 * 1024 * 1024) });
    const first = await Promise.race([
      discardBody(req).then(() => 'answer'),
      new Promise((resolve) => setTimeout(() => resolve('waited'), 500)),
    ]);
    expect(first).toBe('answer');
  });

  it('stops waiting after 2 s for a body still arriving', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    try {
      const req = incoming({ 'content-length': '6' });
      const waiting = discardBody(req);
      req.push(Buffer.from('abc'));
      // What arrived is handed over on the next ticks, which stay real.
      await new Promise((resolve) => setImmediate(resolve));
      jest.advanceTimersByTime(2_000);
      await expect(waiting).resolves.toBe(3);
      expect(req.readableEnded).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });
});
