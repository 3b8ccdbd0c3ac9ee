import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { registerSecretPath } from '../logging/url-mask';
import { UrlMaskingSpanProcessor, maskStatementUrls } from './url-masking';

describe('UrlMaskingSpanProcessor', () => {
  it('masks URL attributes set at a span start before the next processor and the exporter see them', () => {
    registerSecretPath('/results/');
    const exporter = new InMemorySpanExporter();
    const seenAtStart: unknown[] = [];
    const provider = new BasicTracerProvider({
      spanProcessors: [
        new UrlMaskingSpanProcessor(),
        {
          onStart: (span) => seenAtStart.push(span.attributes['url.full']),
          onEnd: () => undefined,
          forceFlush: () => Promise.resolve(),
          shutdown: () => Promise.resolve(),
        },
        new SimpleSpanProcessor(exporter),
      ],
    });
    const span = provider.getTracer('test').startSpan('GET', {
      attributes: {
        'url.full': '/results/dGFzaw.c2ln?key=secret',
        'url.path': '/results/dGFzaw.c2ln',
        'url.query': 'Token=secret&x=1',
        'http.route': '/results/:token',
      },
    });
    span.end();
    expect(seenAtStart).toEqual(['/results/[redacted]?key=[redacted]']);
    const [exported] = exporter.getFinishedSpans();
    expect(exported.attributes).toEqual({
      'url.full': '/results/[redacted]?key=[redacted]',
      'url.path': '/results/[redacted]',
      'url.query': 'Token=[redacted]&x=1',
      'http.route': '/results/:token',
    });
  });

  it('masks the URLs in a recorded SQL text that carries values (the PostgreSQL request hook)', () => {
    registerSecretPath('/results/');
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const span = provider.getTracer('test').startSpan('pg.query:INSERT');
    const text = `INSERT INTO "x" VALUES ('{"url":"http://gw/results/dGFzaw.c2ln"}'); COMMIT`;
    span.setAttribute('db.query.text', text);
    maskStatementUrls(span, { query: { text } });
    span.end();
    expect(exporter.getFinishedSpans()[0].attributes['db.query.text']).toBe(
      `INSERT INTO "x" VALUES ('{"url":"http://gw/results/[redacted]"}'); COMMIT`,
    );
  });
});
