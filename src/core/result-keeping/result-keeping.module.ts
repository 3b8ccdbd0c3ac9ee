import { DynamicModule, Global, Inject, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../../platform/config/app-config';
import { ReadinessDetails } from '../../platform/health/readiness-details';
import { createObjectStore } from '../../platform/storage/object-stores';
import { ObjectStore } from './object-store';
import { ResultFileEntity } from './result-file.entity';
import { ResultFilesRepository } from './result-files.repository';
import { ResultKeepWorker } from './result-keep.worker';
import { ResultKeeper } from './result-keeper.service';
import { ResultRekeeping } from './result-rekeeping.service';
import { AuditModule } from '../audit/audit.module';
import { ResultLinks, derivedResultSecret } from './result-links';
import { ResultMetrics } from './result-metrics';
import { StoredTotals } from './stored-totals';
import { ResultRetentionSweeper } from './result-retention.sweeper';
import { RenewableLinks } from './renewable-links';
import { installResultLinks } from './result-url';
import { resultUrlsOnRequestHost } from './request-origin';

/**
 * The keep queue, its worker, the retention sweeper, the object store, the URL signer and the
 * sources of renewable links. Global: the task lifecycle queues downloads with a task's ending
 * through `ResultKeeper`, and families register their renewable link sources.
 */
@Global()
@Module({})
export class ResultKeepingModule implements OnModuleInit, OnModuleDestroy {
  constructor(
    private readonly links: ResultLinks,
    private readonly keeper: ResultKeeper,
    private readonly store: ObjectStore,
    private readonly readiness: ReadinessDetails,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  static forRoot(adminToken: string): DynamicModule {
    return {
      module: ResultKeepingModule,
      imports: [TypeOrmModule.forFeature([ResultFileEntity]), AuditModule],
      providers: [
        {
          provide: ObjectStore,
          useFactory: (config: AppConfig): ObjectStore => createObjectStore(config),
          inject: [AppConfig],
        },
        {
          provide: ResultLinks,
          useFactory: (config: AppConfig) =>
            new ResultLinks({
              origin: resultOrigin(config),
              secrets: [
                config.RESULT_URL_SECRET ?? derivedResultSecret(adminToken),
                config.RESULT_URL_SECRET_PREVIOUS,
              ].filter((s): s is string => typeof s === 'string'),
              ttlSeconds: config.RESULT_URL_TTL_S,
            }),
          inject: [AppConfig],
        },
        ResultFilesRepository,
        StoredTotals,
        ResultMetrics,
        ResultKeeper,
        ResultRekeeping,
        ResultKeepWorker,
        ResultRetentionSweeper,
        RenewableLinks,
      ],
      exports: [
        ObjectStore,
        ResultLinks,
        ResultFilesRepository,
        ResultKeeper,
        ResultRekeeping,
        ResultMetrics,
        RenewableLinks,
      ],
    };
  }

  /** Presenters sign their result URLs from now on (with `off` they pass the upstream's through). */
  onModuleInit(): void {
    if (this.config.RESULT_STORE !== 'off') {
      installResultLinks(this.links);
      // Without a configured public address, answers carry result URLs on the host the client called.
      const adapter = this.adapterHost?.httpAdapter as { setAnswerRewriter?: (r: unknown) => void } | undefined;
      if (!this.config.PUBLIC_BASE_URL)
        adapter?.setAnswerRewriter?.(resultUrlsOnRequestHost(resultOrigin(this.config)));
    }
    this.readiness.register('results', () => this.keeper.readiness());
  }

  onModuleDestroy(): void {
    installResultLinks(undefined, this.links);
    this.store.close?.();
  }
}

/** `PUBLIC_BASE_URL`, else the address the start banner prints (what callbacks carry without one). */
function resultOrigin(config: AppConfig): string {
  return (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}
