import type { IncomingMessage, ServerResponse } from 'http';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { NestInstrumentation } from '@opentelemetry/instrumentation-nestjs-core';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { SECRET_QUERY_PARAMS } from '../logging/url-mask';
import { NO_LABEL, requestLabels } from './request-labels';
import { formatTraceparent, markTracingStarted } from './spans';
import { TracingSettings } from './tracing-config';
import { UrlMaskingSpanProcessor, maskStatementUrls } from './url-masking';

/** Query values blanked in every recorded URL (with the SDK's own list); `maskUrl` masks the same in paths and logs. */
const REDACTED_QUERY = [...SECRET_QUERY_PARAMS];

/** Paths scraped or probed every few seconds: no trace each time. */
const UNTRACED_PATHS = new Set(['/metrics', '/healthz', '/readyz']);

export interface TracingOverrides {
  /** Tests: an in-memory exporter instead of OTLP. */
  spanProcessors?: SpanProcessor[];
}

let sdk: NodeSDK | undefined;

/**
 * Starts the OpenTelemetry SDK: OTLP/HTTP export in batches (JSON or protobuf), sampling,
 * service name and resource from the standard `OTEL_*` variables, W3C `traceparent` propagation,
 * and spans for inbound HTTP (with the route, family, model and account, never a header or a
 * body), outbound HTTP, Nest handlers, PostgreSQL and Redis. Traces only: metrics stay on
 * Prometheus (`/metrics`), logs on stdout with trace IDs in each line.
 */
export function startTracing(settings: TracingSettings, overrides: TracingOverrides = {}): void {
  if (sdk) return;
  const exporting = overrides.spanProcessors ?? [
    // Batched as the SDK batches a trace exporter it is given (OTEL_BSP_* apply).
    new BatchSpanProcessor(settings.protocol === 'http/json' ? new OtlpJsonExporter() : new OtlpProtoExporter()),
  ];
  sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ? undefined : 'video-gateway',
    // URLs are masked before any other processor or the exporter sees a span.
    spanProcessors: [new UrlMaskingSpanProcessor(), ...exporting],
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        redactedQueryParamsServer: REDACTED_QUERY,
        redactedQueryParams: REDACTED_QUERY,
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]),
        // The answer names its trace beside X-Request-Id.
        responseHook: (span, response) => {
          if (isServerResponse(response) && !response.headersSent)
            response.setHeader('traceparent', formatTraceparent(span.spanContext()));
        },
        applyCustomAttributesOnSpan: (span, request) => {
          if (!isIncoming(request)) return;
          const labels = requestLabels(request);
          if (labels.family !== NO_LABEL) span.setAttribute('gateway.family', labels.family);
          if (labels.model !== NO_LABEL) span.setAttribute('gateway.model', labels.model);
          if (labels.accountId !== undefined) span.setAttribute('gateway.account_id', labels.accountId);
        },
      }),
      // Express still gives the route template; its per-layer spans would repeat Nest's handler spans.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.REQUEST_HANDLER] }),
      new NestInstrumentation(),
      // No statement values are recorded (they hold prompts and request snapshots); the SQL text is.
      // Only inside a request's or a task's span (no lone spans from start-up or background scans); no pool checkouts.
      new PgInstrumentation({
        enhancedDatabaseReporting: false,
        requireParentSpan: true,
        ignoreConnectSpans: true,
        requestHook: maskStatementUrls,
      }),
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  sdk.start();
  markTracingStarted(stopTracing);
  // Spans still in the batch are sent before the process ends (main.ts awaits the same on a signal).
  process.once('beforeExit', () => void stopTracing().catch(() => undefined));
}

/** Sends what is buffered and stops the SDK (tests, shutdown). */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown();
  sdk = undefined;
}

function isServerResponse(response: unknown): response is ServerResponse {
  return typeof (response as ServerResponse).setHeader === 'function';
}

function isIncoming(request: unknown): request is IncomingMessage {
  return typeof (request as IncomingMessage).headers === 'object' && !('setHeader' in (request as object));
}
