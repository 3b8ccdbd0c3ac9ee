import { randomUUID } from 'crypto';
import type { NextFunction, Request, Response } from 'express';
import { requestContext } from './request-context';

const SAFE_INCOMING_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * First middleware: gives every request an ID (kept from `X-Request-Id` when it is sane),
 * opens the request context, and writes `X-Request-Id` and `Server-Timing` just before the
 * headers go out (gateway time excludes upstream time, so each can be read on its own).
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && SAFE_INCOMING_ID.test(incoming) ? incoming : randomUUID();
  const context = { requestId, startedAt: process.hrtime.bigint() };
  (req as Request & { id: string }).id = requestId;
  res.setHeader('X-Request-Id', requestId);
  const writeHead = res.writeHead;
  res.writeHead = function patchedWriteHead(this: Response, ...args: unknown[]) {
    if (!res.headersSent) {
      const totalMs = Number(process.hrtime.bigint() - context.startedAt) / 1e6;
      const upstreamMs = (context as { upstreamMs?: number }).upstreamMs;
      const gatewayMs = upstreamMs === undefined ? totalMs : Math.max(0, totalMs - upstreamMs);
      res.setHeader('Server-Timing', upstreamMs === undefined ? `gw;dur=${gatewayMs.toFixed(1)}` : `gw;dur=${gatewayMs.toFixed(1)}, upstream;dur=${upstreamMs.toFixed(1)}`);
    }
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as typeof res.writeHead;
  requestContext.run(context, () => next());
}
