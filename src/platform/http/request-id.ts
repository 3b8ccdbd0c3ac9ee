import { randomUUID } from 'crypto';
import type { Request, Response } from 'express';
import type { ServerResponse } from 'http';
import { CONTEXT, ContextRequest, ContextResponse, RequestContext } from './request-context';

const SAFE_INCOMING_ID = /^[A-Za-z0-9._:-]{8,128}$/;
/**
 * Gives the request its ID (kept from `X-Request-Id` when it is sane) and its context, and writes
 * `X-Request-Id` at once; `Server-Timing` follows when the headers go out (see `installServerTiming`).
 */
export function openRequestContext(req: Request, res: Response): RequestContext {
  const incoming = req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && SAFE_INCOMING_ID.test(incoming) ? incoming : randomUUID();
  const context: RequestContext = { requestId, startedAt: process.hrtime.bigint() };
  (req as Request & { id: string }).id = requestId;
  (req as ContextRequest)[CONTEXT] = context;
  (res as ContextResponse)[CONTEXT] = context;
  res.setHeader('X-Request-Id', requestId);
  return context;
}

/** Gateway time excludes upstream time, so each can be read on its own. */
export function serverTiming(context: RequestContext, now: bigint = process.hrtime.bigint()): string {
  const totalMs = Number(now - context.startedAt) / 1e6;
  const upstreamMs = context.upstreamMs;
  if (upstreamMs === undefined) return `gw;dur=${totalMs.toFixed(1)}`;
  return `gw;dur=${Math.max(0, totalMs - upstreamMs).toFixed(1)}, upstream;dur=${upstreamMs.toFixed(1)}`;
}

const INSTALLED = Symbol('gateway.serverTiming');

/**
 * Writes `Server-Timing` just before the headers go out, for every response of one Express app:
 * one `writeHead` on the app's response prototype (Express gives each response that prototype)
 * instead of a closure patched onto each response.
 */
export function installServerTiming(responsePrototype: object): void {
  const proto = responsePrototype as ServerResponse & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  const writeHead = proto.writeHead;
  proto.writeHead = function writeHeadWithTiming(
    this: ContextResponse,
    statusCode: number,
    reason?: unknown,
    headers?: unknown,
  ) {
    const context = this[CONTEXT];
    if (context !== undefined && !this.headersSent) this.setHeader('Server-Timing', serverTiming(context));
    return (writeHead as (this: ServerResponse, ...args: unknown[]) => ServerResponse).call(
      this,
      statusCode,
      reason,
      headers,
    );
  } as typeof proto.writeHead;
  proto[INSTALLED] = true;
}
