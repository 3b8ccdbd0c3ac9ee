import { HttpModule } from '@nestjs/axios';
import { DynamicModule, InjectionToken, Module, ModuleMetadata, Provider } from '@nestjs/common';
import { AxClient } from './ax/ax.client';
import { ChannelRegistry } from './channels/channel-registry';
import { loadChannels } from './channels/load-channels';
import { UPSTREAM_CHANNELS } from './channels/upstream-channels.token';
import { UpstreamAgents } from './http/upstream-agents';
import { UpstreamBreakers } from './http/upstream-breakers';
import { UPSTREAM_HTTP_OPTIONS, UpstreamHttpOptions, resolveHttpOptions } from './http/upstream-http-options';
import { UpstreamTransport } from './http/upstream-transport';
import { KlAuth } from './kl/kl.auth';
import { KlClient } from './kl/kl.client';
import { UpstreamClients } from './upstream-clients';
import type { UpstreamChannel } from './upstream.types';
import { VdClient } from './vd/vd.client';

/** A value, or a factory with its dependencies (e.g. the simulator's addresses, the app config). */
export interface FactoryOf<T> {
  // Nest factories take whatever `inject` names, so the parameters cannot be typed here.
  useFactory: (...deps: never[]) => T | Promise<T>;
  inject?: InjectionToken[];
}
export type ValueOrFactory<T> = T | FactoryOf<T>;

export interface UpstreamModuleOptions {
  /** Default: `loadChannels(process.env)`. */
  channels?: ValueOrFactory<readonly UpstreamChannel[]>;
  /** Default: `DEFAULT_UPSTREAM_HTTP_OPTIONS`; given fields override it. */
  http?: ValueOrFactory<Partial<UpstreamHttpOptions>>;
  /** Modules the factories' `inject` tokens come from. */
  imports?: ModuleMetadata['imports'];
}

const EXPORTED = [
  KlClient,
  AxClient,
  VdClient,
  UpstreamClients,
  ChannelRegistry,
  UpstreamBreakers,
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
    return {
      module: UpstreamModule,
      imports: [HttpModule, ...(options.imports ?? [])],
      providers: [
        valueOrFactoryProvider(UPSTREAM_CHANNELS, options.channels ?? { useFactory: () => loadChannels(process.env) }),
        httpOptionsProvider(options.http ?? {}),
        UpstreamAgents,
        UpstreamBreakers,
        UpstreamTransport,
        KlAuth,
        KlClient,
        AxClient,
        VdClient,
        UpstreamClients,
        ChannelRegistry,
      ],
      exports: EXPORTED,
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
