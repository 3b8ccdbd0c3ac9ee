import { AsyncLocalStorage } from 'async_hooks';

/**
 * Per-request facts that deep layers record without knowing HTTP: the request ID for native
 * bodies and logs, the account for the access log, and upstream time for Server-Timing.
 */
export interface RequestContext {
  requestId: string;
  startedAt: bigint;
  accountId?: string;
  upstreamMs?: number;
  /** The request's `Idempotency-Key` claim, tied to the task inside its creation transaction. */
  idempotency?: { key: string; requestHash: string };
}

const storage = new AsyncLocalStorage<RequestContext>();

export const requestContext = {
  /** Runs `fn(...args)` inside the context (arguments instead of a closure: no allocation per request). */
  run<A extends unknown[], T>(context: RequestContext, fn: (...args: A) => T, ...args: A): T {
    return storage.run(context, fn, ...args);
  },
  current(): RequestContext | undefined {
    return storage.getStore();
  },
  requestId(): string | undefined {
    return storage.getStore()?.requestId;
  },
  /** Adds upstream time to the current request's Server-Timing. */
  addUpstreamTime(ms: number): void {
    const ctx = storage.getStore();
    if (ctx) ctx.upstreamMs = (ctx.upstreamMs ?? 0) + ms;
  },
};
