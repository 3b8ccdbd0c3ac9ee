/**
 * Required by main.ts before Nest, Express, the database drivers and ioredis, so that their
 * instrumentation can patch them as they load. With tracing off nothing else is loaded: the
 * OpenTelemetry SDK stays out of the process and `@opentelemetry/api` stays a no-op.
 */
import { tracingSettings } from './tracing-config';

const settings = tracingSettings();
if (settings) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./tracing-sdk') as typeof import('./tracing-sdk')).startTracing(settings);
}
