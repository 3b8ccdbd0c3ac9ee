import { DynamicModule, Inject, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import { AppConfig } from '../config/app-config';
import { requestContext } from '../http/request-context';
import { accessLogMiddleware } from './access-log.middleware';

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

/**
 * The one pino logger of the process: JSON lines on stdout, credentials redacted. Lines written
 * while a request is being served carry its ID (`req.id`) from the request context.
 */
export function createRootLogger(level: string, destination?: pino.DestinationStream): pino.Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin: () => {
      const id = requestContext.requestId();
      return id ? { req: { id } } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Structured JSON logs: one access line per request (method, route, status, latency, account,
 * request id), with credentials redacted and bodies never logged.
 *
 * Nest's own `Logger` writes through nestjs-pino to the same root logger. nestjs-pino's per-request
 * middleware (pino-http) is not mounted: it built three child loggers per request (serialising the
 * request each time), which cost more than everything else the access log does. The access line is
 * written once, at the end, by `accessLogMiddleware`; other lines get the request ID from the
 * request context instead of a child logger.
 */
@Module({})
export class LoggingModule implements NestModule {
  constructor(@Inject(ROOT_LOGGER) private readonly logger: pino.Logger) {}

  static forRoot(config: AppConfig): DynamicModule {
    const root = createRootLogger(config.LOG_LEVEL);
    return {
      module: LoggingModule,
      // `logger` given: nestjs-pino writes through it; `forRoutes: []`: its request middleware is mounted nowhere.
      imports: [LoggerModule.forRoot({ pinoHttp: { logger: root }, forRoutes: [] })],
      providers: [{ provide: ROOT_LOGGER, useValue: root }],
      exports: [ROOT_LOGGER],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(accessLogMiddleware(this.logger)).forRoutes('*');
  }
}
