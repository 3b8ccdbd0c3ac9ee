import { UPSTREAM_FAMILIES, UpstreamFamily, type UpstreamChannel } from '../upstream.types';
import { checkBaseUrl } from './base-url';
import { ChannelConfigError } from './channel-config-error';
import { FamilyModelMaps, loadFamilyModelMaps, parseModelMap } from './model-maps';

export { ChannelConfigError } from './channel-config-error';

type Env = Record<string, string | undefined>;

const FAMILIES: readonly UpstreamFamily[] = UPSTREAM_FAMILIES;
const CHANNEL_FIELDS = new Set(['id', 'family', 'baseUrl', 'apiKey', 'accessKey', 'secretKey', 'modelMap']);
const CHANNEL_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Channels from the environment: one `<family>-default` per family whose `UPSTREAM_<FAMILY>_*`
 * variables are set, plus the JSON array `UPSTREAM_CHANNELS` for more. Nothing set means no
 * channels (the app then uses the simulator). Every channel gets a model map: the vendors' names
 * from config/upstream-models.json, under `UPSTREAM_<FAMILY>_MODEL_MAP`, under the channel's own
 * `modelMap`. Throws `ChannelConfigError` on anything invalid.
 */
export function loadChannels(env: Env): UpstreamChannel[] {
  const channels = [...FAMILIES.flatMap((family) => defaultChannel(env, family)), ...extraChannels(env)];
  const seen = new Set<string>();
  for (const channel of channels) {
    if (seen.has(channel.id))
      throw new ChannelConfigError(`UPSTREAM_CHANNELS: channel id "${channel.id}" is used twice.`);
    seen.add(channel.id);
  }
  if (channels.length === 0) return [];
  // Read only when a real channel needs it: with nothing configured no file is required.
  const maps = loadFamilyModelMaps(env);
  return channels.map((channel) => withModelMap(channel, maps));
}

/** The family's map with the channel's own entries on top. */
function withModelMap(channel: UpstreamChannel, maps: FamilyModelMaps): UpstreamChannel {
  return Object.freeze({ ...channel, modelMap: Object.freeze({ ...maps[channel.family], ...channel.modelMap }) });
}

function defaultChannel(env: Env, family: UpstreamFamily): UpstreamChannel[] {
  const prefix = `UPSTREAM_${family.toUpperCase()}`;
  const read = (name: string) => nonBlank(env[`${prefix}_${name}`]);
  const baseUrl = read('BASE_URL');
  const apiKey = read('API_KEY');
  const accessKey = family === 'kl' ? read('ACCESS_KEY') : undefined;
  const secretKey = family === 'kl' ? read('SECRET_KEY') : undefined;
  if (!baseUrl && !apiKey && !accessKey && !secretKey) return [];
  if (!baseUrl)
    throw new ChannelConfigError(`${prefix}_BASE_URL is required when other ${prefix}_* variables are set.`);
  const channel = {
    id: `${family}-default`,
    family,
    baseUrl: checkBaseUrl(baseUrl, `${prefix}_BASE_URL`, family),
    apiKey,
    accessKey,
    secretKey,
  };
  checkCredentials(channel, {
    apiKey: `${prefix}_API_KEY`,
    accessKey: `${prefix}_ACCESS_KEY`,
    secretKey: `${prefix}_SECRET_KEY`,
  });
  return [freeze(channel)];
}

function extraChannels(env: Env): UpstreamChannel[] {
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
  return parsed.map((item, index) => extraChannel(item, `UPSTREAM_CHANNELS[${index}]`));
}

function extraChannel(item: unknown, where: string): UpstreamChannel {
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
  if (!FAMILIES.includes(raw.family as UpstreamFamily))
    throw new ChannelConfigError(`${where}.family must be one of ${FAMILIES.join(', ')}.`);
  const family = raw.family as UpstreamFamily;
  const baseUrl = optionalString(raw.baseUrl, `${where}.baseUrl`);
  if (!baseUrl) throw new ChannelConfigError(`${where}.baseUrl is required.`);
  const channel = {
    id,
    family,
    baseUrl: checkBaseUrl(baseUrl, `${where}.baseUrl`, family),
    apiKey: optionalString(raw.apiKey, `${where}.apiKey`),
    accessKey: optionalString(raw.accessKey, `${where}.accessKey`),
    secretKey: optionalString(raw.secretKey, `${where}.secretKey`),
    modelMap:
      raw.modelMap === undefined || raw.modelMap === null
        ? undefined
        : parseModelMap(raw.modelMap, `${where}.modelMap`),
  };
  if (family !== 'kl' && (channel.accessKey || channel.secretKey)) {
    throw new ChannelConfigError(`${where}: accessKey/secretKey are only used by family kl; use apiKey.`);
  }
  checkCredentials(channel, {
    apiKey: `${where}.apiKey`,
    accessKey: `${where}.accessKey`,
    secretKey: `${where}.secretKey`,
  });
  return freeze(channel);
}

function checkCredentials(
  channel: UpstreamChannel,
  names: { apiKey: string; accessKey: string; secretKey: string },
): void {
  if (channel.accessKey && !channel.secretKey)
    throw new ChannelConfigError(`${names.secretKey} is required when ${names.accessKey} is set.`);
  if (channel.secretKey && !channel.accessKey)
    throw new ChannelConfigError(`${names.accessKey} is required when ${names.secretKey} is set.`);
  if (channel.apiKey || channel.accessKey) return;
  const alternatives = channel.family === 'kl' ? ` (or ${names.accessKey} and ${names.secretKey})` : '';
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
