import {
  Attributes,
  Context,
  ROOT_CONTEXT,
  Span,
  SpanContext,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context,
  createContextKey,
  trace,
} from '@opentelemetry/api';

/**
 * The gateway's own spans, through `@opentelemetry/api` only. Every helper here checks one flag
 * first: with tracing off (the SDK never started) it calls the work directly and allocates nothing.
 */
const TRACER = 'video-gateway';
let on = false;
let stop: (() => Promise<void>) | undefined;

/** Called once by the SDK bootstrap when it has registered a tracer provider; `shutdown` flushes and stops it. */
export function markTracingStarted(shutdown: () => Promise<void>): void {
  on = true;
  stop = shutdown;
}

/** Sends the spans still buffered and stops the SDK; nothing to do with tracing off. */
export async function shutdownTracing(): Promise<void> {
  await stop?.().catch(() => undefined);
}

export function tracingStarted(): boolean {
  return on;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C `traceparent` of the active span (what a task stores at creation); null with tracing off or no span. */
export function currentTraceparent(): string | null {
  if (!on) return null;
  const span = trace.getActiveSpan();
  return span ? formatTraceparent(span.spanContext()) : null;
}

export function formatTraceparent(sc: SpanContext): string {
  return `00-${sc.traceId}-${sc.spanId}-0${(sc.traceFlags & TraceFlags.SAMPLED).toString(16)}`;
}

export function parseTraceparent(value: string | null | undefined): SpanContext | null {
  const match = value ? TRACEPARENT.exec(value) : null;
  if (!match || /^0+$/.test(match[1]) || /^0+$/.test(match[2])) return null;
  return { traceId: match[1], spanId: match[2], traceFlags: parseInt(match[3], 16) & 1, isRemote: true };
}

/** The trace ID inside a stored `traceparent` (for operators), or null. */
export function traceIdOf(traceparent: string | null | undefined): string | null {
  return parseTraceparent(traceparent)?.traceId ?? null;
}

/**
 * A span of a task's later life (poll, settlement, callback, result download), on whichever
 * instance runs it: a child of the request span that created the task, as stored with the task
 * (`traceparent`), and linked to it, so one task is one trace. Without a stored context it starts
 * a trace of its own. It never inherits the caller's context: worker cycles run untraced.
 */
export function withTaskSpan<T>(
  name: string,
  traceparent: string | null | undefined,
  attributes: Attributes,
  work: () => Promise<T>,
): Promise<T> {
  if (!on) return work();
  const origin = parseTraceparent(traceparent);
  const parent = origin ? trace.setSpanContext(ROOT_CONTEXT, origin) : ROOT_CONTEXT;
  const links = origin ? [{ context: origin, attributes: { 'gateway.link': 'task.created' } }] : [];
  return run(name, parent, { kind: SpanKind.INTERNAL, attributes, links }, work);
}

/** A span inside the active one (e.g. a settlement inside a poll or a create). */
export function withSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  if (!on) return work();
  return run(name, context.active(), { kind: SpanKind.INTERNAL, attributes }, work);
}

/** Sets attributes on the active span, if any (tracing on). */
export function annotateActiveSpan(attributes: Attributes): void {
  if (on) trace.getActiveSpan()?.setAttributes(attributes);
}

/**
 * The SDK's "suppress tracing" key (the api's `createContextKey` names it by `Symbol.for`, so this is
 * the same key the SDK's `suppressTracing` sets): instrumentations start no span under it.
 */
const SUPPRESS_TRACING = createContextKey('OpenTelemetry SDK Context Key SUPPRESS_TRACING');

/**
 * Runs background polling (a worker's scan for due work) without spans: an idle scan every second
 * on every instance would be a trace of its own each time. The per-task spans it starts are
 * not affected (`withTaskSpan` starts from the task's own context).
 */
export function untraced<T>(work: () => Promise<T>): Promise<T> {
  if (!on) return work();
  return context.with(context.active().setValue(SUPPRESS_TRACING, true), work);
}

function run<T>(
  name: string,
  parent: Context,
  options: { kind: SpanKind; attributes: Attributes; links?: { context: SpanContext; attributes?: Attributes }[] },
  work: () => Promise<T>,
): Promise<T> {
  return trace.getTracer(TRACER).startActiveSpan(name, options, parent, async (span: Span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
      throw error;
    } finally {
      span.end();
    }
  });
}
