import type { UpstreamChannel } from '../upstream.types';
import { ChannelConfigError } from './channel-config-error';

type Env = Record<string, string | undefined>;

/** How new tasks are spread over a channel: the routing fields of `UpstreamChannel`. */
export type RoutingSettings = Pick<UpstreamChannel, 'weight' | 'priority' | 'models' | 'maxInFlight'>;

/** The JSON fields of a channel object in `UPSTREAM_CHANNELS`. */
export const ROUTING_FIELDS = ['weight', 'priority', 'models', 'maxInFlight'] as const;

export const DEFAULT_WEIGHT = 1;
export const DEFAULT_PRIORITY = 0;
/** Bounds that keep the weighted round-robin's sums exact. */
const MAX_WEIGHT = 1_000_000;
const MAX_PRIORITY = 1_000_000;

/** The routing fields of one `UPSTREAM_CHANNELS` object; errors name the field and the channel. */
export function routingFromJson(raw: Record<string, unknown>, where: string, channelId: string): RoutingSettings {
  const name = (field: string) => `${where}.${field} (channel ${channelId})`;
  return {
    weight: optionalInt(raw.weight, name('weight'), 0, MAX_WEIGHT),
    priority: optionalInt(raw.priority, name('priority'), -MAX_PRIORITY, MAX_PRIORITY),
    models: optionalModels(raw.models, name('models')),
    maxInFlight: optionalInt(raw.maxInFlight, name('maxInFlight'), 1, Number.MAX_SAFE_INTEGER),
  };
}

/**
 * The routing variables of a family's default channel: `<prefix>_WEIGHT`, `_PRIORITY`, `_MAX_IN_FLIGHT`
 * (integers) and `_MODELS` (public names, comma-separated).
 */
export function routingFromEnv(env: Env, prefix: string, channelId: string): RoutingSettings {
  const name = (field: string) => `${prefix}_${field} (channel ${channelId})`;
  const text = (field: string) => {
    const value = env[`${prefix}_${field}`]?.trim();
    return value ? value : undefined;
  };
  const int = (field: string, min: number, max: number) => {
    const value = text(field);
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value)) throw new ChannelConfigError(`${name(field)} must be an integer.`);
    return optionalInt(Number(value), name(field), min, max);
  };
  const models = text('MODELS');
  return {
    weight: int('WEIGHT', 0, MAX_WEIGHT),
    priority: int('PRIORITY', -MAX_PRIORITY, MAX_PRIORITY),
    models: models === undefined ? undefined : optionalModels(models.split(','), name('MODELS')),
    maxInFlight: int('MAX_IN_FLIGHT', 1, Number.MAX_SAFE_INTEGER),
  };
}

function optionalInt(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new ChannelConfigError(`${name} must be an integer from ${min} to ${max}.`);
  return value;
}

function optionalModels(value: unknown, name: string): readonly string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new ChannelConfigError(`${name} must be an array of public model names.`);
  const names = value.map((item) => (typeof item === 'string' ? item.trim() : ''));
  if (names.length === 0 || names.some((item) => item === ''))
    throw new ChannelConfigError(`${name} must list at least one public model name, each a non-empty string.`);
  return Object.freeze([...new Set(names)]);
}
