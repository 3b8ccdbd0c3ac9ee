import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { CORE_MIGRATIONS, MigrationClass, dataSourceOptions } from './data-source-options';
import { WalCheckpointer } from './wal-checkpointer';

/**
 * TypeORM on SQLite (default) or PostgreSQL, migrations applied at start unless switched off.
 * Each module registers its own entities (`TypeOrmModule.forFeature`); they are loaded from there.
 */
@Module({})
export class DatabaseModule {
  /** `migrations`: the core's and the families', assembled by the app (this floor names no family). */
  static forRoot(config: AppConfig, migrations: readonly MigrationClass[] = CORE_MIGRATIONS): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRoot({
          ...dataSourceOptions(
            config.DATABASE_URL,
            config.MIGRATIONS_RUN,
            [],
            { size: config.DATABASE_POOL_SIZE, connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS },
            migrations,
          ),
          autoLoadEntities: true,
        }),
      ],
      providers: [WalCheckpointer],
    };
  }
}
