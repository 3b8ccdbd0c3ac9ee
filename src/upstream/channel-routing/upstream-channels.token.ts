/**
 * Injection token of the configured channels (`readonly UpstreamChannel[]`). By default filled from
 * the environment (`loadChannels`); the app may provide the simulator's channels instead.
 */
export const UPSTREAM_CHANNELS = Symbol('UPSTREAM_CHANNELS');
