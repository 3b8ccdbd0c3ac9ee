export { assertModelMapsCover } from './assert-model-maps';
export type { PublicModel } from './assert-model-maps';
export { CLIENT_PATH_PREFIX, checkBaseUrl } from './base-url';
export { ChannelRegistry } from './channel-registry';
export { ChannelConfigError, loadChannels } from './load-channels';
export { DEFAULT_MODEL_MAP_FILE, identityModelMap, loadFamilyModelMaps } from './model-maps';
export type { FamilyModelMaps, ModelMap } from './model-maps';
export { UPSTREAM_CHANNELS } from './upstream-channels.token';
