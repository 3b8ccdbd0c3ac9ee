import { execFile } from 'child_process';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join, resolve } from 'path';

/**
 * Tracing, checked in child processes (OpenTelemetry patches modules as Node loads them, which
 * jest's module sandbox bypasses): test/support/traced-run.ts runs one task's whole life and
 * reports what it saw.
 */
const RUN = resolve(__dirname, '../support/traced-run.ts');
const ROOT = resolve(__dirname, '../..');

interface SpanSeen {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string }>;
}
interface RunReport {
  taskId: string;
  createStatus: number;
  createHeaders: Record<string, string>;
  queryHeaders: Record<string, string>;
  callbackHeaders: Record<string, string>;
  storedTraceContext: string | null;
  credentialUrls: { resultToken: string; resultStatus: number; callbackToken: string; callbackStatus: number };
  adminTraceId: string | null;
  metrics: string;
  otelModules: string[];
  spans: SpanSeen[];
}

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'gw-trace-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(mode: string, env: Record<string, string> = {}): Promise<{ report: RunReport; stdout: string }> {
  const out = join(dir, `${mode}-${Date.now()}.json`);
  // The parent's OTEL_* settings never leak into a run.
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
  return new Promise((done, fail) =>
    execFile(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', RUN],
      {
        cwd: ROOT,
        env: { ...base, TRACE_RUN_MODE: mode, TRACE_RUN_OUT: out, ...env },
        timeout: 150_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error) return fail(new Error(`traced run (${mode}) failed: ${stderr || error.message}`));
        done({ report: JSON.parse(readFileSync(out, 'utf8')) as RunReport, stdout });
      },
    ),
  );
}

const INCOMING_TRACE = '0af7651916cd43dd8448eb211c80319c';

describe('tracing in process (in-memory exporter)', () => {
  let report: RunReport;
  let logLines: Array<Record<string, unknown>>;

  beforeAll(async () => {
    const result = await run('memory', { TRACE_RUN_LOG_LEVEL: 'info' });
    report = result.report;
    logLines = result.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }, 180_000);

  const named = (name: string) => report.spans.filter((s) => s.name === name);

  it('honours an incoming traceparent and answers with the request span beside X-Request-Id', () => {
    expect(report.createStatus).toBe(200);
    expect(report.createHeaders['x-request-id']).toBeDefined();
    expect(report.createHeaders.traceparent).toMatch(new RegExp(`^00-${INCOMING_TRACE}-[0-9a-f]{16}-01$`));
    expect(report.queryHeaders.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });

  it('records the inbound request with its route template, family, model and account, and no key or prompt', () => {
    const [create] = named('POST /vd/ent/v2/reference2video');
    expect(create.traceId).toBe(INCOMING_TRACE);
    expect(create.attributes).toMatchObject({
      'http.route': '/vd/ent/v2/reference2video',
      'gateway.family': 'vd',
      'gateway.model': 'vdq3',
      'gateway.account_id': expect.stringMatching(/^acct_/),
    });
    const [query] = named('GET /vd/ent/v2/tasks/:id/creations');
    expect(query.attributes).toMatchObject({ 'gateway.family': 'vd' });
    const everything = JSON.stringify(report.spans);
    expect(everything).not.toMatch(/sk-|Bearer|authorization/i);
    expect(everything).not.toContain('@cat naps');
    expect(everything).not.toContain('cat.png');
  });

  it("masks a result URL's token and an upstream callback token in every span and log line", () => {
    const { resultToken, resultStatus, callbackToken, callbackStatus } = report.credentialUrls;
    expect([resultStatus, callbackStatus]).toEqual([200, 404]);
    const [served] = report.spans.filter((s) => s.kind === 1 && s.attributes['http.route'] === '/results/:token');
    expect(served.attributes).toMatchObject({ 'url.path': '/results/[redacted]' });
    const [callback] = named('UpstreamCallbackController.receive');
    expect(callback.attributes).toMatchObject({ 'url.full': '/callbacks/upstream/[redacted]' });
    const everything = JSON.stringify(report.spans) + JSON.stringify(logLines);
    expect(everything).toContain('/results/[redacted]');
    for (const token of [resultToken, callbackToken]) expect(everything).not.toContain(token);
  });

  it('records each upstream call with vendor, channel, operation, status and a URL without query', () => {
    const calls = named('upstream POST').concat(named('upstream GET'));
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls) {
      expect(call.attributes).toMatchObject({
        'gateway.upstream.vendor': 'vd',
        'gateway.upstream.channel': expect.any(String),
        'gateway.upstream.operation': expect.stringMatching(/^(GET|POST) \//),
        'http.response.status_code': 200,
      });
      expect(String(call.attributes['url.full'])).not.toContain('?');
    }
  });

  it('makes the task one story: polls, settlement and callback join the creating request trace, linked to it', () => {
    const traceId = report.createHeaders.traceparent.split('-')[1];
    const origin = report.storedTraceContext?.split('-');
    expect(origin?.[1]).toBe(traceId);
    const syncs = named('task.sync');
    expect(syncs.length).toBeGreaterThanOrEqual(1);
    const downloads = named('result.download');
    expect(downloads.length).toBeGreaterThanOrEqual(1);
    for (const span of [...syncs, ...named('callback.deliver'), ...downloads]) {
      expect(span.traceId).toBe(traceId);
      expect(span.parentSpanId).toBe(origin?.[2]);
      expect(span.links).toEqual([{ traceId, spanId: origin?.[2] }]);
    }
    const [settle] = named('task.settle');
    expect(settle.traceId).toBe(traceId);
    expect(settle.attributes).toMatchObject({ 'gateway.phase': 'succeeded' });
    expect(syncs.map((s) => s.spanId)).toContain(settle.parentSpanId);
    expect(named('callback.deliver')).toHaveLength(1);
    // An operator finds the trace from the task's admin view.
    expect(report.adminTraceId).toBe(traceId);
    // The callback's POST carries the trace on to the client.
    expect(report.callbackHeaders.traceparent).toContain(traceId);
  });

  it('puts the trace and span IDs on every log line written inside a span', () => {
    const access = logLines.find((l) => (l.req as { url?: string } | undefined)?.url === '/vd/ent/v2/reference2video');
    expect(access).toMatchObject({ trace_id: INCOMING_TRACE, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it("traces database calls inside the request and the task, and never the workers' idle scans", () => {
    const statements = report.spans.map((s) => String(s.attributes['db.query.text'] ?? ''));
    expect(
      statements.filter((q) => q.includes('"sync_due_at" <=') || /callback_deliveries.*next_attempt_at <=/.test(q)),
    ).toEqual([]);
    if (!process.env.DATABASE_URL?.startsWith('postgres')) return; // SQLite calls are not instrumented
    const traceId = report.createHeaders.traceparent.split('-')[1];
    const inTask = report.spans.filter((s) => s.traceId === traceId && s.attributes['db.system.name'] === 'postgresql');
    expect(inTask.length).toBeGreaterThan(0);
  });

  it('exposes request, upstream and sync series per family, model and channel', () => {
    expect(report.metrics).toMatch(/gateway_family_requests_total\{family="vd",model="vdq3",outcome="ok"\} 1/);
    expect(report.metrics).toMatch(/gateway_family_request_duration_seconds_count\{family="vd",model="vdq3"\} 1/);
    expect(report.metrics).toMatch(
      /gateway_upstream_request_duration_seconds_count\{channel="[^"]+",method="POST",outcome="answered"\} 1/,
    );
    expect(report.metrics).toMatch(/gateway_sync_lag_seconds_count [1-9]/);
  });

  it('exports every series the Grafana dashboard charts', () => {
    const dashboard = readFileSync(join(ROOT, 'docs/grafana/gateway-dashboard.json'), 'utf8');
    const used = new Set(
      [...dashboard.matchAll(/gateway_[a-z_]+/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, '')),
    );
    expect(used.size).toBeGreaterThanOrEqual(6);
    expect([...used].filter((name) => !report.metrics.includes(`# HELP ${name} `))).toEqual([]);
  });
});

describe('tracing off', () => {
  it('loads no OpenTelemetry SDK module, stores no trace context and sends no traceparent', async () => {
    const { report } = await run('off');
    expect(report.createStatus).toBe(200);
    expect(report.otelModules).toEqual([]);
    expect(report.storedTraceContext).toBeNull();
    expect(report.adminTraceId).toBeNull();
    expect(report.createHeaders.traceparent).toBeUndefined();
    expect(report.callbackHeaders.traceparent).toBeUndefined();
  }, 180_000);
});

describe('tracing end to end over OTLP/HTTP', () => {
  let receiver: Server;
  let endpoint: string;
  const batches: Array<{ contentType: string | undefined; body: Buffer }> = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/v1/traces')
          batches.push({ contentType: req.headers['content-type'], body: Buffer.concat(chunks) });
        res.setHeader('content-type', req.headers['content-type'] ?? 'application/json');
        res.end(req.headers['content-type']?.includes('json') ? '{}' : '');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

  it('http/json: one task create, polls, settlement and callback arrive as one trace from the named service', async () => {
    batches.length = 0;
    const { report } = await run('env', {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'gateway-under-test',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '1',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    });
    const spans: Array<{ name: string; traceId: string; service: string }> = [];
    for (const batch of batches) {
      expect(batch.contentType).toContain('application/json');
      const body = JSON.parse(batch.body.toString('utf8')) as {
        resourceSpans: Array<{
          resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
          scopeSpans: Array<{ spans: Array<{ name: string; traceId: string }> }>;
        }>;
      };
      for (const rs of body.resourceSpans) {
        const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
        for (const ss of rs.scopeSpans)
          for (const s of ss.spans) spans.push({ name: s.name, traceId: s.traceId, service });
      }
    }
    const traceId = report.createHeaders.traceparent.split('-')[1];
    const story = spans.filter((s) => s.traceId === traceId).map((s) => s.name);
    expect(story).toEqual(
      expect.arrayContaining(['POST /vd/ent/v2/reference2video', 'task.sync', 'task.settle', 'callback.deliver']),
    );
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['gateway-under-test']));
  }, 180_000);

  it('http/protobuf: the same spans go out protobuf-encoded', async () => {
    batches.length = 0;
    const { report } = await run('env', {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    });
    expect(report.createHeaders.traceparent).toBeDefined();
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.every((b) => b.contentType === 'application/x-protobuf')).toBe(true);
    // The trace ID travels as 16 raw bytes inside the protobuf body.
    const traceId = Buffer.from(report.createHeaders.traceparent.split('-')[1], 'hex');
    expect(batches.some((b) => b.body.includes(traceId))).toBe(true);
  }, 180_000);
});
