import { HttpModule } from '@nestjs/axios';
import { DynamicModule, InjectionToken, Module, ModuleMetadata, Provider } from '@nestjs/common';
import { ChannelCredentialCheck } from './channel-routing/channel-credential-check';
import { ChannelRegistry, UPSTREAM_VENDOR_LIST } from './channel-routing/channel-registry';
import { loadChannels } from './channel-routing/load-channels';
import { UPSTREAM_CHANNELS } from './channel-routing/upstream-channels.token';
import { FileDownloads } from './http/file-downloads';
import { UpstreamAgents } from './http/upstream-agents';
import { UpstreamBreakers } from './http/upstream-breakers';
import { UPSTREAM_HTTP_OPTIONS, UpstreamHttpOptions, resolveHttpOptions } from './http/upstream-http-options';
import { UpstreamTransport } from './http/upstream-transport';
import { UPSTREAM_TASK_CLIENTS, UpstreamClients } from './upstream-clients';
import type { UpstreamChannel, UpstreamTaskClient } from './upstream.types';
import type { UpstreamVendor } from './vendor';
import { UPSTREAM_VENDORS } from './vendors';

/** A value, or a factory with its dependencies (e.g. the simulator's addresses, the app config). */
export interface FactoryOf<T> {
  // Nest factories take whatever `inject` names, so the parameters cannot be typed here.
  useFactory: (...deps: never[]) => T | Promise<T>;
  inject?: InjectionToken[];
}
export type ValueOrFactory<T> = T | FactoryOf<T>;

export interface UpstreamModuleOptions {
  /** The vendors to speak to; default: `UPSTREAM_VENDORS`. */
  vendors?: readonly UpstreamVendor[];
  /** Default: `loadChannels(process.env, vendors)`. */
  channels?: ValueOrFactory<readonly UpstreamChannel[]>;
  /** Default: `DEFAULT_UPSTREAM_HTTP_OPTIONS`; given fields override it. */
  http?: ValueOrFactory<Partial<UpstreamHttpOptions>>;
  /** Modules the factories' `inject` tokens come from. */
  imports?: ModuleMetadata['imports'];
}

const EXPORTED = [
  UpstreamClients,
  ChannelCredentialCheck,
  ChannelRegistry,
  UpstreamBreakers,
  FileDownloads,
  UPSTREAM_CHANNELS,
  UPSTREAM_HTTP_OPTIONS,
];

/**
 * The upstream clients, channel registry and facade. Import `UpstreamModule.forRoot()` (channels
 * from the environment) or `forRoot({channels: ...})` (e.g. the simulator's when none is configured).
 */
@Module({})
export class UpstreamModule {
  static forRoot(options: UpstreamModuleOptions = {}): DynamicModule {
    const vendors = options.vendors ?? UPSTREAM_VENDORS;
    const clientClasses = vendors.map((vendor) => vendor.client);
    return {
      module: UpstreamModule,
      imports: [HttpModule, ...(options.imports ?? [])],
      providers: [
        valueOrFactoryProvider(
          UPSTREAM_CHANNELS,
          options.channels ?? { useFactory: () => loadChannels(process.env, vendors) },
        ),
        httpOptionsProvider(options.http ?? {}),
        UpstreamAgents,
        UpstreamBreakers,
        UpstreamTransport,
        FileDownloads,
        ...vendors.flatMap((vendor) => vendor.providers ?? []),
        ...clientClasses,
        {
          provide: UPSTREAM_TASK_CLIENTS,
          useFactory: (...clients: UpstreamTaskClient[]) => clients,
          inject: clientClasses,
        },
        UpstreamClients,
        { provide: UPSTREAM_VENDOR_LIST, useValue: vendors },
        ChannelRegistry,
        ChannelCredentialCheck,
      ],
      exports: [...EXPORTED, ...clientClasses],
    };
  }
}

function isFactory<T>(value: ValueOrFactory<T>): value is FactoryOf<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    'useFactory' in value &&
    typeof (value as FactoryOf<T>).useFactory === 'function'
  );
}

function valueOrFactoryProvider<T>(token: symbol, value: ValueOrFactory<T>): Provider {
  return isFactory(value)
    ? { provide: token, useFactory: value.useFactory, inject: value.inject ?? [] }
    : { provide: token, useValue: value };
}

function httpOptionsProvider(value: ValueOrFactory<Partial<UpstreamHttpOptions>>): Provider {
  if (!isFactory(value)) return { provide: UPSTREAM_HTTP_OPTIONS, useValue: resolveHttpOptions(value) };
  return {
    provide: UPSTREAM_HTTP_OPTIONS,
    useFactory: async (...deps: never[]) => resolveHttpOptions(await value.useFactory(...deps)),
    inject: value.inject ?? [],
  };
}
