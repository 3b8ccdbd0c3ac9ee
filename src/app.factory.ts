import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppModule, GatewayModuleOptions } from './app.module';
import { FAMILIES } from './families';
import { FamilyRegistry } from './families/family-registry';
import { OPENAI_ERRORS } from './openai/openai.errors';
import { setFastPaths } from './platform/config/fast-paths';
import { ErrorWriter } from './platform/errors';
import { GatewayExceptionFilter } from './platform/errors/gateway-exception.filter';
import { answerClientErrors } from './platform/http/client-errors';
import { gatewayHttpMiddleware } from './platform/http/gateway-http.middleware';
import { startIdleScavenges } from './platform/http/idle-scavenge';
import { TimedExpressAdapter } from './platform/http/timed-express-adapter';
import { AccessLog } from './platform/logging/access-log';
import { ACCESS_LOGGER } from './platform/logging/logging.module';
import { HttpMetrics } from './platform/metrics/http-metrics';
import { MetricsService } from './platform/metrics/metrics.service';

/** Builds the whole gateway application (used by main.ts and by every e2e test). */
export async function createGatewayApp(options: GatewayModuleOptions): Promise<NestExpressApplication> {
  // First: every piece reads the switch when it is built.
  setFastPaths(options.config.FAST_PATHS, options.config.FAST_PATHS_OFF);
  const families = options.families ?? new FamilyRegistry(FAMILIES);
  const errors = new ErrorWriter([...families.errorDialects(), OPENAI_ERRORS]);
  const adapter = new TimedExpressAdapter({
    headersMs: options.config.CLIENT_HEADERS_TIMEOUT_MS,
    requestMs: options.config.CLIENT_REQUEST_TIMEOUT_MS,
    keepAliveMs: options.config.CLIENT_KEEP_ALIVE_TIMEOUT_MS,
  });
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ ...options, families }), adapter, {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  // `req.ip` (the admin lockout's key, the audit's address) follows X-Forwarded-For only from the proxies TRUST_PROXY names.
  app.set('trust proxy', options.config.TRUST_PROXY);
  app.set('etag', false);
  // One middleware for request ID and context, Server-Timing, metrics and the access log (bodies are
  // read after the route's credential, by the platform's RequestBodyGuard).
  app.use(
    gatewayHttpMiddleware(app.getHttpAdapter().getInstance(), {
      errors,
      metrics: new HttpMetrics(app.get(MetricsService)),
      accessLog: new AccessLog(app.get(ACCESS_LOGGER)),
    }),
  );
  app.useGlobalFilters(new GatewayExceptionFilter(errors));
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Video generation gateway')
      .setDescription(
        `Families ${families.families.map((f) => `/${f.id}`).join(', ')}, plus the admin API. Errors use the gateway error object with the family’s native fields.`,
      )
      .setVersion('1')
      .addBearerAuth()
      .build(),
  );
  // Its routes go after the API's (see registerAfterRoutes): nine fewer to walk past per request.
  adapter.registerAfterRoutes(() => SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' }));
  app.enableShutdownHooks();
  answerClientErrors(app.getHttpServer(), errors);
  startIdleScavenges(app.getHttpServer(), options.config.IDLE_SCAVENGE);
  return app;
}
