/** Public surface of the upstream floor. */
export * from './upstream.types';
export { UpstreamModule } from './upstream.module';
export type { FactoryOf, UpstreamModuleOptions, ValueOrFactory } from './upstream.module';
export { UPSTREAM_TASK_CLIENTS, UpstreamClients } from './upstream-clients';
export type { UpstreamVendor, VendorEnvNames } from './vendor';
export { vendorEnvNames } from './vendor';
export { UPSTREAM_FAMILIES, UPSTREAM_VENDORS, vendorOf } from './vendors';
export {
  ChannelConfigError,
  ChannelRegistry,
  UPSTREAM_CHANNELS,
  assertModelMapsCover,
  identityModelMap,
  loadChannels,
} from './channel-routing';
export {
  DEFAULT_UPSTREAM_HTTP_OPTIONS,
  UPSTREAM_HTTP_OPTIONS,
  httpOptionsFromConfig,
  resolveHttpOptions,
} from './http/upstream-http-options';
export type { UpstreamHttpOptions, UpstreamTimeoutConfig } from './http/upstream-http-options';
export { UpstreamBreakers } from './http/upstream-breakers';
export type { BreakerState } from './http/upstream-breakers';
export { KL_PATHS, KlClient } from './kl';
export type { KlCallPath, KlCallOptions } from './kl';
export { AX_ASYNC_HEADER, AxClient } from './ax';
export { VdClient } from './vd';
