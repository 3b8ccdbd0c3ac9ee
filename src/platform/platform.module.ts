import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { CORE_MIGRATIONS, MigrationClass } from './database/data-source-options';
import { DatabaseModule } from './database/database.module';
import { TransactionRunner } from './database/transaction-runner';
import { HealthController } from './health/health.controller';
import { RequestBodyGuard } from './http/request-body';
import { ReadinessDetails } from './health/readiness-details';
import { LoggingModule } from './logging/logging.module';
import { MetricsController } from './metrics/metrics.controller';
import { MetricsService } from './metrics/metrics.service';
import { RateLimiterService } from './rate-limit/rate-limiter.service';
import { RedisConnection } from './redis/redis.provider';
import { Clock, SystemClock } from './time/clock';

/** Cross-cutting services every module may inject: config, database, clock, Redis, metrics, limits. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(
    config: AppConfig,
    clock: Clock = new SystemClock(),
    migrations: readonly MigrationClass[] = CORE_MIGRATIONS,
  ): DynamicModule {
    const database = DatabaseModule.forRoot(config, migrations);
    return {
      module: PlatformModule,
      imports: [ConfigModule.forRoot(config), database, LoggingModule.forRoot(config)],
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: Clock, useValue: clock },
        RedisConnection,
        RateLimiterService,
        MetricsService,
        TransactionRunner,
        ReadinessDetails,
        // The body step of every route: the route's credential first, then its body (see RequestBodyGuard).
        { provide: APP_GUARD, useClass: RequestBodyGuard },
      ],
      exports: [
        ConfigModule,
        database,
        Clock,
        RedisConnection,
        RateLimiterService,
        MetricsService,
        TransactionRunner,
        ReadinessDetails,
      ],
    };
  }
}
