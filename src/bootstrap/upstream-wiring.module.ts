import { DynamicModule, Global, Injectable, Module } from '@nestjs/common';
import { FamilyId } from '../core/models/model-catalogue';
import { UpstreamDirectory } from '../core/tasks/upstream-directory';
import { AppConfig } from '../platform/config/app-config';
import { ChannelRegistry } from '../upstream/channels/channel-registry';
import { httpOptionsFromConfig } from '../upstream/http/upstream-http-options';
import { UpstreamClients } from '../upstream/upstream-clients';
import { UpstreamModule } from '../upstream/upstream.module';
import { UpstreamChannel, UpstreamTaskClient } from '../upstream/upstream.types';

/** The engine's view of the upstream layer: channels from the registry, clients from the facade. */
@Injectable()
export class RegistryUpstreamDirectory extends UpstreamDirectory {
  constructor(
    private readonly registry: ChannelRegistry,
    private readonly clients: UpstreamClients,
  ) {
    super();
  }

  pick(family: FamilyId): UpstreamChannel | null {
    return this.registry.all().some((c) => c.family === family) ? this.registry.forFamily(family) : null;
  }

  channel(id: string): UpstreamChannel | undefined {
    return this.registry.byId(id);
  }

  client(family: FamilyId): UpstreamTaskClient {
    return this.clients.clientFor(family);
  }
}

/** Connects the core's UpstreamDirectory port to the configured upstream channels and clients. */
@Global()
@Module({})
export class UpstreamWiringModule {
  static forRoot(config: AppConfig, channels: UpstreamChannel[]): DynamicModule {
    const upstream = UpstreamModule.forRoot({ channels, http: httpOptionsFromConfig(config) });
    return {
      module: UpstreamWiringModule,
      imports: [upstream],
      providers: [{ provide: UpstreamDirectory, useClass: RegistryUpstreamDirectory }],
      exports: [UpstreamDirectory, upstream],
    };
  }
}
