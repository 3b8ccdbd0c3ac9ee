import { DynamicModule, Module } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'http';
import { LoggerModule } from 'nestjs-pino';
import { requestContext } from '../http/request-context';
import { AppConfig } from '../config/app-config';

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

/**
 * Structured JSON logs: one access line per request (method, route, status, latency, account,
 * request id), with credentials redacted and bodies never logged.
 */
@Module({})
export class LoggingModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.LOG_LEVEL,
            redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
            genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id?: string }).id ?? requestContext.requestId() ?? '',
            autoLogging: { ignore: (req: IncomingMessage) => req.url === '/healthz' || req.url === '/metrics' },
            // Called when the request starts and again when it ends; only the end knows the route and account.
            customProps: (req: IncomingMessage, res: ServerResponse) =>
              res.headersSent
                ? {
                    accountId: (req as IncomingMessage & { principal?: { account: { id: string } } }).principal?.account.id,
                    route: (req as IncomingMessage & { route?: { path?: string } }).route?.path,
                  }
                : {},
            serializers: {
              req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: maskQuery(req.url), id: req.id }),
              res: (res: ServerResponse & { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
          },
        }),
      ],
    };
  }
}

function maskQuery(url: string): string {
  return url.replace(/([?&](?:key|api_key|token)=)[^&]+/gi, '$1[redacted]');
}
