import type { IncomingMessage, ServerResponse } from 'http';

/**
 * Per-request facts that deeper layers need without knowing HTTP: the request ID for native
 * bodies and log lines, upstream time for Server-Timing, and the request's `Idempotency-Key`
 * claim. Opened by the gateway's HTTP middleware, kept on the request and its response, and
 * handed down explicitly (controllers take it with `@Ctx()`).
 *
 * Explicit rather than an AsyncLocalStorage: on Node 20 an AsyncLocalStorage in use puts hooks on
 * every promise the process makes (docs/decisions.md, "No AsyncLocalStorage").
 */
export interface RequestContext {
  requestId: string;
  startedAt: bigint;
  upstreamMs?: number;
  /** The request's `Idempotency-Key` claim, tied to the task inside its creation transaction. */
  idempotency?: { key: string; requestHash: string };
}

/** Where a request (and its response) keeps its context. */
export const CONTEXT = Symbol('gateway.requestContext');

export type ContextRequest = IncomingMessage & { [CONTEXT]?: RequestContext };
export type ContextResponse = ServerResponse & { [CONTEXT]?: RequestContext };

/** The context of a request the gateway's HTTP middleware has seen; throws for one it has not. */
export function contextOf(req: IncomingMessage): RequestContext {
  const context = (req as ContextRequest)[CONTEXT];
  if (context === undefined)
    throw new Error('request without a request context (the gateway HTTP middleware opens it)');
  return context;
}

/** Adds upstream time to a request's Server-Timing. */
export function addUpstreamTime(context: RequestContext | undefined, ms: number): void {
  if (context) context.upstreamMs = (context.upstreamMs ?? 0) + ms;
}
