import { randomUUID } from 'crypto';
import type { Request, Response } from 'express';
import type { ServerResponse } from 'http';
import { CONTEXT, ContextRequest, ContextResponse, RequestContext } from './request-context';

const SAFE_INCOMING_ID = /^[A-Za-z0-9._:-]{8,128}$/;
/**
 * Gives the request its ID (kept from `X-Request-Id` when it is sane) and its context, and writes
 * `X-Request-Id` at once; `Server-Timing` follows when the headers go out (see `writeServerTiming`).
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

/** Writes `Server-Timing` on a response whose headers are about to go out (see `beforeHeaders`). */
export function writeServerTiming(res: ServerResponse): void {
  const context = (res as ContextResponse)[CONTEXT];
  if (context !== undefined) res.setHeader('Server-Timing', serverTiming(context));
}
