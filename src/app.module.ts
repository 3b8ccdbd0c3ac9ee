import { DynamicModule, Module } from '@nestjs/common';
import { AdminModule } from './admin/admin.module';
import { CallbacksModule } from './callbacks/callbacks.module';
import { UpstreamWiringModule } from './bootstrap/upstream-wiring.module';
import { FamiliesModule } from './families/families.module';
import { FamilyRegistry } from './families/family-registry';
import { AppConfig } from './platform/config/app-config';
import { PlatformModule } from './platform/platform.module';
import { Clock } from './platform/time/clock';
import { UpstreamChannel } from './upstream/upstream.types';

export interface GatewayModuleOptions {
  config: AppConfig;
  channels: UpstreamChannel[];
  adminToken: string;
  clock?: Clock;
  /** The families to serve; default: every family of `src/families/index.ts`. */
  families?: FamilyRegistry;
}

@Module({})
export class AppModule {
  static forRoot(options: GatewayModuleOptions & { families: FamilyRegistry }): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(options.config, options.clock),
        UpstreamWiringModule.forRoot(options.config, options.channels),
        FamiliesModule.forRoot(options.families),
        // The clients' routes first: Express tries each route in the order it was registered, so
        // a family request no longer walks past every operator and callback route (~5% of a query).
        ...options.families.families.map((family) => family.module),
        AdminModule.forRoot(options.adminToken),
        CallbacksModule,
      ],
    };
  }
}
