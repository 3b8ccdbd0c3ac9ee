import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { maskUrl } from '../logging/url-mask';

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
