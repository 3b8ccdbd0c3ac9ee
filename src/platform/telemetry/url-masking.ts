import type { Span as ApiSpan } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { maskUrl, maskUrlsInText } from '../logging/url-mask';

/** The span attributes that hold a URL or its path (the HTTP instrumentation's, Nest's, the gateway's own). */
const URL_ATTRIBUTES = ['url.full', 'url.path', 'http.target', 'http.url'] as const;

/**
 * First among the span processors: a span's URL attributes are masked as the logs mask them
 * (`maskUrl`: credential query values, a signed result URL's token, an upstream callback token)
 * before any other processor or exporter sees the span. Every instrumentation sets them when the
 * span starts; Nest's records the raw URL and has no hook of its own, hence a processor.
 */
export class UrlMaskingSpanProcessor implements SpanProcessor {
  onStart(span: Span): void {
    for (const name of URL_ATTRIBUTES) {
      const value = span.attributes[name];
      if (typeof value !== 'string') continue;
      const masked = maskUrl(value);
      if (masked !== value) span.setAttribute(name, masked);
    }
    // The query alone, without its `?` (the instrumentation's own list compares names with case).
    const query = span.attributes['url.query'];
    if (typeof query === 'string' && query !== '') {
      const masked = maskUrl(`?${query}`).slice(1);
      if (masked !== query) span.setAttribute('url.query', masked);
    }
  }

  onEnd(_span: ReadableSpan): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The PostgreSQL instrumentation's request hook: SQL sent with its values written in (the batched
 * commit) can carry a callback body's result URLs; its recorded text has them masked. The
 * instrumentation sets the text after the span starts, so the processor above never sees it.
 */
export function maskStatementUrls(span: ApiSpan, info: { query: { text: string } }): void {
  const masked = maskUrlsInText(info.query.text);
  if (masked !== info.query.text) span.setAttribute('db.query.text', masked);
}
