import type { IncomingMessage } from 'http';

/** How much of a refused request's body is waited out before its answer goes (bytes, then time). */
const DISCARD_MAX_BYTES = 64 * 1024 * 1024;
const DISCARD_MAX_MS = 2_000;
/** The wait a request's body was already given, so a second refusal does not wait again. */
const DISCARDING = Symbol('gateway.discardingBody');
type Discarding = IncomingMessage & { [DISCARDING]?: Promise<number> };

/**
 * Whether a request declares a body of which nothing has been read: an answer sent now, on a
 * connection the client asked to close, would reset it while the client is still sending.
 */
export function hasUnreadBody(req: IncomingMessage): boolean {
  if (req.complete || req.readableEnded || (req as Discarding)[DISCARDING]) return false;
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Lets a refused request's body arrive and drops it unparsed (no CPU beyond the socket reads), so the
 * client, still sending, reads the answer instead of a reset connection. A body declared larger than
 * 64 MiB, or one still arriving after 2 s, is not waited for: the answer goes at once. Asked twice
 * for one request, it waits once. Resolves with the bytes it dropped, so a body that declares no
 * length (chunked) can be judged by its size too.
 */
export function discardBody(req: IncomingMessage): Promise<number> {
  const discarding = req as Discarding;
  return (discarding[DISCARDING] ??= waitOut(req));
}

function waitOut(req: IncomingMessage): Promise<number> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (req.readableEnded || req.complete || declared > DISCARD_MAX_BYTES) return Promise.resolve(0);
  return new Promise((resolve) => {
    let received = 0;
    const done = (): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      req.off('error', done);
      resolve(received);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > DISCARD_MAX_BYTES) done();
    };
    const timer = setTimeout(done, DISCARD_MAX_MS);
    req.on('data', onData);
    req.on('end', done);
    req.on('close', done);
    req.on('error', done);
    req.resume();
  });
}
