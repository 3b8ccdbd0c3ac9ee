import type { UpstreamChannel } from '../upstream.types';
import type { UpstreamVendor } from '../vendor';
import { UPSTREAM_VENDORS } from '../vendors';
import { checkBaseUrl } from './base-url';
import { ChannelConfigError } from './channel-config-error';
import { FamilyModelMaps, loadFamilyModelMaps, parseModelMap } from './model-maps';
import { ROUTING_FIELDS, routingFromEnv, routingFromJson } from './routing-settings';

export { ChannelConfigError } from './channel-config-error';

type Env = Record<string, string | undefined>;

const CHANNEL_FIELDS = new Set([
  'id',
  'family',
  'baseUrl',
  'apiKey',
  'accessKey',
  'secretKey',
  'modelMap',
  ...ROUTING_FIELDS,
]);
const CHANNEL_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Channels from the environment: one `<family>-default` per family whose `UPSTREAM_<FAMILY>_*`
 * variables are set, plus the JSON array `UPSTREAM_CHANNELS` for more. Nothing set means no
 * channels (the app then uses the simulator). Every channel gets a model map: the vendors' names
 * from config/upstream-models.json, under `UPSTREAM_<FAMILY>_MODEL_MAP`, under the channel's own
 * `modelMap`. Routing: `weight`, `priority`, `models`, `maxInFlight` (`UPSTREAM_<FAMILY>_WEIGHT`... for
 * a default channel). Throws `ChannelConfigError` on anything invalid.
 */
export function loadChannels(env: Env, vendors: readonly UpstreamVendor[] = UPSTREAM_VENDORS): UpstreamChannel[] {
  const channels = [...vendors.flatMap((vendor) => defaultChannel(env, vendor)), ...extraChannels(env, vendors)];
  const seen = new Set<string>();
  for (const channel of channels) {
    if (seen.has(channel.id))
      throw new ChannelConfigError(`UPSTREAM_CHANNELS: channel id "${channel.id}" is used twice.`);
    seen.add(channel.id);
  }
  if (channels.length === 0) return [];
  // Read only when a real channel needs it: with nothing configured no file is required.
  const maps = loadFamilyModelMaps(env, vendors);
  return channels.map((channel) => withModelMap(channel, maps));
}

/** The family's map with the channel's own entries on top. */
function withModelMap(channel: UpstreamChannel, maps: FamilyModelMaps): UpstreamChannel {
  return Object.freeze({ ...channel, modelMap: Object.freeze({ ...maps[channel.family], ...channel.modelMap }) });
}

function defaultChannel(env: Env, vendor: UpstreamVendor): UpstreamChannel[] {
  const names = vendor.env;
  const read = (name: string | undefined) => (name ? nonBlank(env[name]) : undefined);
  const baseUrl = read(names.baseUrl);
  const apiKey = read(names.apiKey);
  const accessKey = read(names.accessKey);
  const secretKey = read(names.secretKey);
  if (!baseUrl && !apiKey && !accessKey && !secretKey) return [];
  const prefix = names.baseUrl.replace(/_BASE_URL$/, '');
  if (!baseUrl) throw new ChannelConfigError(`${names.baseUrl} is required when other ${prefix}_* variables are set.`);
  const id = `${vendor.id}-default`;
  const channel = {
    id,
    family: vendor.id,
    baseUrl: checkBaseUrl(baseUrl, names.baseUrl, vendor),
    apiKey,
    accessKey,
    secretKey,
    ...routingFromEnv(env, prefix, id),
  };
  checkCredentials(channel, vendor, {
    apiKey: names.apiKey,
    accessKey: names.accessKey ?? `${prefix}_ACCESS_KEY`,
    secretKey: names.secretKey ?? `${prefix}_SECRET_KEY`,
  });
  return [freeze(channel)];
}

function extraChannels(env: Env, vendors: readonly UpstreamVendor[]): UpstreamChannel[] {
  const text = nonBlank(env.UPSTREAM_CHANNELS);
  if (!text) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's message quotes the input, which may hold keys: say only where to look.
    throw new ChannelConfigError('UPSTREAM_CHANNELS is not valid JSON (expected an array of channel objects).');
  }
  if (!Array.isArray(parsed))
    throw new ChannelConfigError('UPSTREAM_CHANNELS must be a JSON array of channel objects.');
  return parsed.map((item, index) => extraChannel(item, `UPSTREAM_CHANNELS[${index}]`, vendors));
}

function extraChannel(item: unknown, where: string, vendors: readonly UpstreamVendor[]): UpstreamChannel {
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    throw new ChannelConfigError(`${where} must be an object.`);
  const raw = item as Record<string, unknown>;
  const unknownField = Object.keys(raw).find((key) => !CHANNEL_FIELDS.has(key));
  if (unknownField)
    throw new ChannelConfigError(
      `${where}.${unknownField} is not a channel field (allowed: ${[...CHANNEL_FIELDS].join(', ')}).`,
    );
  const id = optionalString(raw.id, `${where}.id`);
  if (!id || !CHANNEL_ID.test(id))
    throw new ChannelConfigError(`${where}.id is required: 1-64 letters, digits, '.', '_' or '-'.`);
  const vendor = vendors.find((candidate) => candidate.id === raw.family);
  if (!vendor) throw new ChannelConfigError(`${where}.family must be one of ${vendors.map((v) => v.id).join(', ')}.`);
  const family = vendor.id;
  const baseUrl = optionalString(raw.baseUrl, `${where}.baseUrl`);
  if (!baseUrl) throw new ChannelConfigError(`${where}.baseUrl is required.`);
  const channel = {
    id,
    family,
    baseUrl: checkBaseUrl(baseUrl, `${where}.baseUrl`, vendor),
    apiKey: optionalString(raw.apiKey, `${where}.apiKey`),
    accessKey: optionalString(raw.accessKey, `${where}.accessKey`),
    secretKey: optionalString(raw.secretKey, `${where}.secretKey`),
    modelMap:
      raw.modelMap === undefined || raw.modelMap === null
        ? undefined
        : parseModelMap(raw.modelMap, `${where}.modelMap`),
    ...routingFromJson(raw, where, id),
  };
  if (!vendor.env.accessKey && (channel.accessKey || channel.secretKey)) {
    const pairs = vendors.filter((v) => v.env.accessKey).map((v) => v.id);
    throw new ChannelConfigError(
      `${where}: accessKey/secretKey are only used by family ${pairs.join(', ')}; use apiKey.`,
    );
  }
  checkCredentials(channel, vendor, {
    apiKey: `${where}.apiKey`,
    accessKey: `${where}.accessKey`,
    secretKey: `${where}.secretKey`,
  });
  return freeze(channel);
}

function checkCredentials(
  channel: UpstreamChannel,
  vendor: UpstreamVendor,
  names: { apiKey: string; accessKey: string; secretKey: string },
): void {
  if (channel.accessKey && !channel.secretKey)
    throw new ChannelConfigError(`${names.secretKey} is required when ${names.accessKey} is set.`);
  if (channel.secretKey && !channel.accessKey)
    throw new ChannelConfigError(`${names.accessKey} is required when ${names.secretKey} is set.`);
  if (channel.apiKey || channel.accessKey) return;
  const alternatives = vendor.env.accessKey ? ` (or ${names.accessKey} and ${names.secretKey})` : '';
  throw new ChannelConfigError(`${names.apiKey}${alternatives} is required for channel ${channel.id}.`);
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ChannelConfigError(`${name} must be a string.`);
  return nonBlank(value);
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function freeze(channel: UpstreamChannel): UpstreamChannel {
  const defined = Object.fromEntries(Object.entries(channel).filter(([, value]) => value !== undefined));
  return Object.freeze(defined) as unknown as UpstreamChannel;
}
