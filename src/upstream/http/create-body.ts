import type { UpstreamChannel } from '../upstream.types';
import { applyModelMap } from './model-map';

/**
 * The caller's wire body as it goes upstream: model names mapped for the channel, and the fields the
 * gateway owns (`fields`: e.g. `callback_url`) never the caller's: each is dropped from the body and
 * set again only when the gateway gives a value.
 */
export function toCreateBody(
  body: Record<string, unknown>,
  channel: UpstreamChannel,
  fields: Readonly<Record<string, string | undefined>>,
): Record<string, unknown> {
  const wire = applyModelMap(body, channel);
  for (const field of Object.keys(fields)) delete wire[field];
  for (const [field, value] of Object.entries(fields)) if (value) wire[field] = value;
  return wire;
}
