/**
 * One task's whole life (create, polls, settlement, client callback) in a process of its own, for
 * the tracing tests: OpenTelemetry's instrumentation patches modules as Node loads them, which
 * jest's module sandbox bypasses. Run with `node -r ts-node/register/transpile-only`.
 *
 * TRACE_RUN_MODE: `memory` (SDK started here with an in-memory exporter), `env` (the gateway's
 * own preload, as main.ts runs it, configured by the OTEL_* variables), or `off` (no OTEL_*).
 * Writes what it saw as JSON to TRACE_RUN_OUT; the gateway's log lines go to stdout.
 */
import { writeFileSync } from 'fs';
import { createServer, IncomingMessage } from 'http';
import { AddressInfo } from 'net';
import type { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';

const mode = process.env.TRACE_RUN_MODE ?? 'off';
let memory: InMemorySpanExporter | undefined;
// Required, not imported: the order of loading is the point.
/* eslint-disable @typescript-eslint/no-require-imports */
if (mode === 'memory') {
  const base = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  memory = new base.InMemorySpanExporter();
  const sdk =
    require('../../src/platform/telemetry/tracing-sdk') as typeof import('../../src/platform/telemetry/tracing-sdk');
  sdk.startTracing({ protocol: 'http/json' }, { spanProcessors: [new base.SimpleSpanProcessor(memory)] });
} else {
  require('../../src/platform/telemetry/preload');
}
/* eslint-enable @typescript-eslint/no-require-imports */

async function main(): Promise<void> {
  // Loaded only now, after the SDK: Nest, Express, pg and ioredis are patched as they load.
  /* eslint-disable @typescript-eslint/no-require-imports */
  require('reflect-metadata');
  const { startSimulatedGateway, bearer, eventually } =
    require('./simulated-gateway') as typeof import('./simulated-gateway');
  const { shutdownTracing } =
    require('../../src/platform/telemetry/spans') as typeof import('../../src/platform/telemetry/spans');
  /* eslint-enable @typescript-eslint/no-require-imports */

  const callbacks: Array<{ headers: IncomingMessage['headers'] }> = [];
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      callbacks.push({ headers: req.headers });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const gw = await startSimulatedGateway({
    taskMs: 300,
    env: { LOG_LEVEL: process.env.TRACE_RUN_LOG_LEVEL ?? 'silent' },
  });
  const acct = await gw.admin.account({ models: ['vdq3'] });
  const incoming = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  const created = await gw
    .http()
    .post('/vd/ent/v2/reference2video')
    .set(...bearer(acct))
    .set(mode === 'memory' ? { traceparent: incoming } : {})
    .send({
      model: 'vdq3',
      subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
      prompt: '@cat naps',
      callback_url: hook,
    });
  const taskId = created.body.task_id as string;
  const queried = await gw
    .http()
    .get(`/vd/ent/v2/tasks/${taskId}/creations`)
    .set(...bearer(acct));
  await eventually(async () => callbacks.length >= 1, 15_000);
  // Two URLs that are credentials: the kept video's signed URL and an upstream callback URL.
  const finished = await gw
    .http()
    .get(`/vd/ent/v2/tasks/${taskId}/creations`)
    .set(...bearer(acct));
  const resultUrl = new URL((finished.body as { creations: Array<{ url: string }> }).creations[0].url);
  const result = await gw.http().get(resultUrl.pathname);
  const callbackToken = 'an-upstream-callback-token-0123456789';
  const upstreamCallback = await gw.http().post(`/callbacks/upstream/${callbackToken}`).send({});
  const { DataSource } = await import('typeorm');
  const rows = (await gw.app
    .get(DataSource)
    .query(
      'SELECT trace_context FROM tasks WHERE id = ?'.replace(
        '?',
        gw.config.DATABASE_URL?.startsWith('postgres') ? '$1' : '?',
      ),
      [taskId],
    )) as Array<{ trace_context: string | null }>;
  const metrics = await gw.http().get('/metrics');
  const adminView = await gw.admin.get(`/admin/v1/tasks/${taskId}/callbacks`);
  let spans: ReadableSpan[] = [];
  if (memory) {
    const exporter = memory;
    // The delivery's span ends after the callback's answer has been recorded; the kept copies'
    // downloads run off the request path and end on their own time.
    spans = await eventually(async () => {
      const all = exporter.getFinishedSpans();
      const served = (route: string) => all.some((s) => s.attributes['http.route'] === route);
      return all.some((s) => s.name === 'callback.deliver') &&
        all.some((s) => s.name === 'result.download') &&
        served('/results/:token') &&
        served('/callbacks/upstream/:token')
        ? all
        : null;
    }, 10_000);
  }
  await gw.close();
  await new Promise<void>((r) => receiver.close(() => r()));
  await shutdownTracing();
  writeFileSync(
    process.env.TRACE_RUN_OUT as string,
    JSON.stringify({
      taskId,
      createStatus: created.status,
      createHeaders: created.headers,
      queryHeaders: queried.headers,
      callbackHeaders: callbacks[0].headers,
      storedTraceContext: rows[0]?.trace_context ?? null,
      credentialUrls: {
        resultToken: resultUrl.pathname.split('/').pop(),
        resultStatus: result.status,
        callbackToken,
        callbackStatus: upstreamCallback.status,
      },
      adminTraceId: (adminView.body as { trace_id?: string | null }).trace_id,
      metrics: metrics.text,
      otelModules: Object.keys(require.cache).filter((k) => /node_modules[\\/]@opentelemetry[\\/](?!api[\\/])/.test(k)),
      spans: spans.map((s) => ({
        name: s.name,
        kind: s.kind,
        traceId: s.spanContext().traceId,
        spanId: s.spanContext().spanId,
        parentSpanId: s.parentSpanContext?.spanId,
        attributes: s.attributes,
        links: s.links.map((l) => ({ traceId: l.context.traceId, spanId: l.context.spanId })),
      })),
    }),
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
