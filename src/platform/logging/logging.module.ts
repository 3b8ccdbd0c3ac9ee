import { DynamicModule, Module } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import PinoPretty from 'pino-pretty';
import { AppConfig, LogFormat } from '../config/app-config';
import { tracingStarted } from '../telemetry/spans';
import { maskUrlsInText } from './url-mask';

/** Paths pino blanks out: credentials and anything that may carry a key or a Base64 payload. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.apiKey',
  '*.secretKey',
  '*.key',
  '*.token',
  'err.config.headers.Authorization',
  'err.config.data',
];

export const ROOT_LOGGER = Symbol('ROOT_LOGGER');
/** The access lines' logger (see `createLoggers`). */
export const ACCESS_LOGGER = Symbol('ACCESS_LOGGER');

/** Longest error message a log line carries (a message may echo client input). */
const MAX_LOGGED_MESSAGE = 500;

/**
 * Errors are logged by type, code and message only (URL credentials in it masked): never a stack
 * trace (answers and logs name no source file), which would also name the gateway's source layout.
 * The type and message say what failed; the line's context and request ID say where.
 */
export function errorWithoutStack(err: unknown): Record<string, unknown> {
  // A message may quote a URL, and a URL may be a credential.
  if (!(err instanceof Error)) return { message: maskUrlsInText(String(err).slice(0, MAX_LOGGED_MESSAGE)) };
  const code = (err as { code?: unknown }).code;
  return {
    type: err.name,
    message: maskUrlsInText(err.message.slice(0, MAX_LOGGED_MESSAGE)),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
  };
}

/**
 * Nest's own start-up chatter (a line per module and per route, ~40 lines): written at debug, so
 * that at `info` a start shows what a person needs (the start banner follows the logs).
 */
export const STARTUP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** `auto` means human-readable on a terminal, JSON lines otherwise (files, pipes, containers). */
export function resolveLogFormat(format: LogFormat, isTTY = Boolean(process.stdout.isTTY)): 'json' | 'pretty' {
  return format === 'auto' ? (isTTY ? 'pretty' : 'json') : format;
}

/**
 * The one pino logger of the process: JSON lines on stdout (or readable lines with `pretty`),
 * credentials redacted. A line about a request names it itself (`req.id`): the access line, and
 * the error and warning lines written where the request context is at hand.
 */
export function createRootLogger(
  level: string,
  destination?: pino.DestinationStream,
  format: 'json' | 'pretty' = 'json',
): pino.Logger {
  return createLoggers(level, destination, format).root;
}

/**
 * The root logger, and the access lines' logger: the same level, format and output, but none of
 * the root's per-line work (redaction, which costs more than the rest of a line; the start-up
 * hook). An access line carries only what `AccessLog` puts in it (method, masked URL, request ID,
 * account, route, status, time): no header, key or body.
 */
export function createLoggers(
  level: string,
  destination?: pino.DestinationStream,
  format: 'json' | 'pretty' = 'json',
): { root: pino.Logger; access: pino.Logger } {
  const options: pino.LoggerOptions = {
    level,
    // With tracing on, each line names the trace and span it was written in; off, no per-line work.
    ...(tracingStarted() ? { mixin: traceIds } : {}),
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: errorWithoutStack, error: errorWithoutStack },
    hooks: {
      logMethod(args, method, lineLevel) {
        const first = args[0] as unknown as { context?: unknown } | undefined;
        if (
          lineLevel === 30 &&
          typeof first === 'object' &&
          first !== null &&
          STARTUP_CONTEXTS.has(first.context as string)
        ) {
          if (this.isLevelEnabled('debug')) this.debug(...(args as Parameters<pino.LogFn>));
          return;
        }
        method.apply(this, args);
      },
    },
  };
  // One output for both (pino's default is an asynchronous SonicBoom on stdout, as here).
  const out =
    format === 'pretty' ? prettyStream(destination) : (destination ?? pino.destination(process.stdout.fd || 1));
  return {
    root: pino(options, out),
    access: pino({ level, ...(tracingStarted() ? { mixin: traceIds } : {}) }, out),
  };
}

/** `trace_id` and `span_id` of the active span, for a log line (none outside a span). */
export function traceIds(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** Readable lines: time, level, `[context]`, the message; an access line as `GET /path -> 200 (3 ms)`. */
function prettyStream(destination?: pino.DestinationStream): PinoPretty.PrettyStream {
  return PinoPretty({
    destination: destination ?? 1,
    sync: true,
    colorize: destination === undefined && Boolean(process.stdout.isTTY),
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context,req,res,responseTime,route',
    messageFormat: (log, messageKey) => {
      const req = log.req as { method?: string; url?: string; id?: string } | undefined;
      const res = log.res as { statusCode?: number } | undefined;
      if (req?.method && res)
        return `${req.method} ${req.url} -> ${res.statusCode} (${String(log.responseTime)} ms) ${String(log[messageKey])}${req.id ? ` [${req.id}]` : ''}`;
      const context = typeof log.context === 'string' ? `[${log.context}] ` : '';
      return `${context}${String(log[messageKey] ?? '')}${req?.id ? ` [${req.id}]` : ''}`;
    },
  });
}

/**
 * Structured logs (JSON lines unless LOG_FORMAT or a terminal says otherwise): one access line per request (method, route, status, latency, account,
 * request id), with credentials redacted and bodies never logged.
 *
 * Nest's own `Logger` writes through nestjs-pino to the same root logger. nestjs-pino's per-request
 * middleware (pino-http) is not mounted: it built three child loggers per request (serialising the
 * request each time), which cost more than everything else the access log does. The access line is
 * written once, at the end, by `AccessLog` from the gateway's one HTTP middleware (app.factory.ts;
 * not a Nest `forRoutes('*')` middleware, which matched every path again); other lines get the
 * request ID from the request context instead of a child logger.
 */
@Module({})
export class LoggingModule {
  static forRoot(config: AppConfig): DynamicModule {
    const { root, access } = createLoggers(config.LOG_LEVEL, undefined, resolveLogFormat(config.LOG_FORMAT));
    return {
      module: LoggingModule,
      // `logger` given: nestjs-pino writes through it; `forRoutes: []`: its request middleware is mounted nowhere.
      imports: [LoggerModule.forRoot({ pinoHttp: { logger: root }, forRoutes: [] })],
      providers: [
        { provide: ROOT_LOGGER, useValue: root },
        { provide: ACCESS_LOGGER, useValue: access },
      ],
      exports: [ROOT_LOGGER, ACCESS_LOGGER],
    };
  }
}
