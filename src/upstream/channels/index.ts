export { ChannelRegistry } from './channel-registry';
export { ChannelConfigError, loadChannels } from './load-channels';
export { UPSTREAM_CHANNELS } from './upstream-channels.token';
