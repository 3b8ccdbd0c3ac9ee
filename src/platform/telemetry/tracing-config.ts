/**
 * When tracing is on, read from the standard OpenTelemetry variables alone (no SDK module is
 * loaded to decide): an OTLP endpoint turns it on; `OTEL_SDK_DISABLED=true` or
 * `OTEL_TRACES_EXPORTER=none` keeps it off.
 */
export interface TracingSettings {
  protocol: TraceProtocol;
}

/** The OTLP/HTTP encodings the gateway ships exporters for (gRPC would add a native-heavy stack). */
export type TraceProtocol = 'http/json' | 'http/protobuf';
const PROTOCOLS: readonly string[] = ['http/json', 'http/protobuf'];

export function tracingSettings(env: NodeJS.ProcessEnv = process.env): TracingSettings | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return null;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return null;
  const protocol =
    (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim() || 'http/protobuf';
  if (!PROTOCOLS.includes(protocol))
    throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/json or http/protobuf (got '${protocol}')`);
  return { protocol: protocol as TraceProtocol };
}
