import { DynamicModule, Module } from '@nestjs/common';
import { AdminModule } from './api/admin/admin.module';
import { CallbacksModule } from './api/callbacks/callbacks.module';
import { AxReferenceVideoModule } from './api/ax/reference-video/ax-reference-video.module';
import { VdReferenceVideoModule } from './api/vd/reference-video/vd-reference-video.module';
import { UpstreamWiringModule } from './bootstrap/upstream-wiring.module';
import { AppConfig } from './platform/config/app-config';
import { PlatformModule } from './platform/platform.module';
import { Clock } from './platform/time/clock';
import { UpstreamChannel } from './upstream/upstream.types';

export interface GatewayModuleOptions {
  config: AppConfig;
  channels: UpstreamChannel[];
  adminToken: string;
  clock?: Clock;
}

@Module({})
export class AppModule {
  static forRoot(options: GatewayModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(options.config, options.clock),
        UpstreamWiringModule.forRoot(options.config, options.channels),
        AdminModule.forRoot(options.adminToken),
        CallbacksModule,
        AxReferenceVideoModule,
        VdReferenceVideoModule,
      ],
    };
  }
}
