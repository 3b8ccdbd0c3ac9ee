import { DynamicModule, Global, Injectable, Module } from '@nestjs/common';
import { FamilyId } from '../core/models/model-catalogue';
import { DownloadRequest, OpenDownload, ResultDownloads } from '../core/result-keeping/result-download';
import { CreateOutcome, UpstreamDirectory } from '../core/tasks/upstream-directory';
import { AppConfig } from '../platform/config/app-config';
import { ChannelRegistry } from '../upstream/channel-routing/channel-registry';
import { FileDownloads } from '../upstream/http/file-downloads';
import { httpOptionsFromConfig } from '../upstream/http/upstream-http-options';
import { UpstreamClients } from '../upstream/upstream-clients';
import { UpstreamModule } from '../upstream/upstream.module';
import { UpstreamChannel, UpstreamTaskClient } from '../upstream/upstream.types';
import type { UpstreamVendor } from '../upstream/vendor';

/** The engine's view of the upstream layer: channels from the registry, clients from the facade. */
@Injectable()
export class RegistryUpstreamDirectory extends UpstreamDirectory {
  constructor(
    private readonly registry: ChannelRegistry,
    private readonly clients: UpstreamClients,
  ) {
    super();
  }

  pick(family: FamilyId, model?: string, exclude?: readonly string[]): UpstreamChannel | null {
    return this.registry.pick(family, model, exclude) ?? null;
  }

  override taskOpened(channelId: string): void {
    this.registry.load.opened(channelId);
  }

  override taskClosed(channelId: string): void {
    this.registry.load.closed(channelId);
  }

  override createEnded(channel: UpstreamChannel, latencyMs: number, error?: unknown): CreateOutcome {
    return this.registry.createEnded(channel, latencyMs, error);
  }

  override queryEnded(channel: UpstreamChannel, error?: unknown): void {
    this.registry.callEnded(channel, error);
  }

  channel(id: string): UpstreamChannel | undefined {
    return this.registry.byId(id);
  }

  client(family: FamilyId): UpstreamTaskClient {
    return this.clients.clientFor(family);
  }
}

/** The keeper's downloads through the upstream floor's HTTP client and agents. */
@Injectable()
export class UpstreamResultDownloads extends ResultDownloads {
  constructor(private readonly files: FileDownloads) {
    super();
  }

  open(url: string, timeoutMs: number, ask?: DownloadRequest): Promise<OpenDownload> {
    return this.files.open(url, timeoutMs, ask);
  }
}

/** Connects the core's UpstreamDirectory and ResultDownloads ports to the configured upstream channels and clients. */
@Global()
@Module({})
export class UpstreamWiringModule {
  static forRoot(config: AppConfig, channels: UpstreamChannel[], vendors?: readonly UpstreamVendor[]): DynamicModule {
    const upstream = UpstreamModule.forRoot({ vendors, channels, http: httpOptionsFromConfig(config) });
    return {
      module: UpstreamWiringModule,
      imports: [upstream],
      providers: [
        { provide: UpstreamDirectory, useClass: RegistryUpstreamDirectory },
        { provide: ResultDownloads, useClass: UpstreamResultDownloads },
      ],
      exports: [UpstreamDirectory, ResultDownloads, upstream],
    };
  }
}
