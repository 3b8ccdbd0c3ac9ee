import { tracingSettings } from './tracing-config';

describe('tracingSettings', () => {
  it('is off without an OTLP endpoint, and when the SDK or the trace exporter is disabled', () => {
    expect(tracingSettings({})).toBeNull();
    expect(tracingSettings({ OTEL_SERVICE_NAME: 'gw' })).toBeNull();
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracingSettings({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(tracingSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBeNull();
  });

  it('is on with an endpoint: protobuf by default, JSON when asked, the traces-only variables first', () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual({ protocol: 'http/protobuf' });
    expect(
      tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }),
    ).toEqual({ protocol: 'http/json' });
    expect(
      tracingSettings({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }),
    ).toEqual({ protocol: 'http/json' });
  });

  it('refuses a protocol it has no exporter for, naming the variable', () => {
    expect(() =>
      tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL must be http\/json or http\/protobuf/);
  });
});
