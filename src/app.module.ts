import { DynamicModule, Module } from '@nestjs/common';
import { AdminModule } from './admin/admin.module';
import { UpstreamCallbacksInModule } from './upstream-callbacks-in/upstream-callbacks-in.module';
import { ConsoleUiModule } from './console-ui/console-ui.module';
import { UpstreamWiringModule } from './bootstrap/upstream-wiring.module';
import { FamiliesModule } from './families/families.module';
import { FamilyRegistry } from './families/family-registry';
import { MeModule } from './me/me.module';
import { OpenAiModule } from './openai/openai.module';
import { AppConfig } from './platform/config/app-config';
import { PlatformModule } from './platform/platform.module';
import { ResultServingModule } from './result-serving/result-serving.module';
import { Clock } from './platform/time/clock';
import { CORE_MIGRATIONS } from './platform/database/data-source-options';
import { UpstreamChannel } from './upstream/upstream.types';
import type { UpstreamVendor } from './upstream/vendor';

export interface GatewayModuleOptions {
  config: AppConfig;
  channels: UpstreamChannel[];
  adminToken: string;
  clock?: Clock;
  /** The families to serve; default: every family of `src/families/index.ts`. */
  families?: FamilyRegistry;
  /** The upstream vendors to speak to; default: every vendor of `src/upstream/vendors.ts`. */
  vendors?: readonly UpstreamVendor[];
}

@Module({})
export class AppModule {
  static forRoot(options: GatewayModuleOptions & { families: FamilyRegistry }): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(options.config, options.clock, [...CORE_MIGRATIONS, ...options.families.migrations()]),
        UpstreamWiringModule.forRoot(options.config, options.channels, options.vendors),
        FamiliesModule.forRoot(options.families),
        // The clients' routes first: Express tries each route in the order it was registered, so
        // a family request no longer walks past every operator and callback route (~5% of a query).
        ...options.families.families.map((family) => family.module),
        OpenAiModule,
        MeModule,
        AdminModule.forRoot(options.adminToken),
        UpstreamCallbacksInModule,
        ResultServingModule.forRoot(options.adminToken),
        ConsoleUiModule,
      ],
    };
  }
}
