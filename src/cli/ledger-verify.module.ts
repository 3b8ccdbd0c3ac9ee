import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LedgerModule } from '../core/billing/ledger.module';
import { dataSourceOptions } from '../platform/database/data-source-options';
import { TransactionRunner } from '../platform/database/transaction-runner';
import { Clock, SystemClock } from '../platform/time/clock';

/**
 * The few platform pieces a verifying command needs (database, clock, transactions): no HTTP,
 * Redis, workers or logging. Read-only use: migrations never run, and one connection attempt only.
 */
@Global()
@Module({})
export class CliPlatformModule {
  static forRoot(databaseUrl: string | undefined): DynamicModule {
    const typeorm = [
      TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl, false), autoLoadEntities: true, retryAttempts: 1 }),
    ];
    return {
      module: CliPlatformModule,
      imports: typeorm,
      providers: [{ provide: Clock, useValue: new SystemClock() }, TransactionRunner],
      exports: [...typeorm, Clock, TransactionRunner],
    };
  }
}

/** What `npm run ledger:verify` boots: the admin API's own LedgerService on the given database. */
@Module({})
export class LedgerVerifyModule {
  static forRoot(databaseUrl: string | undefined): DynamicModule {
    return { module: LedgerVerifyModule, imports: [CliPlatformModule.forRoot(databaseUrl), LedgerModule] };
  }
}
