import type { UpstreamChannel } from '../upstream.types';

/** The body fields that name a model in the upstream protocols (`model_name` in kl, `model` elsewhere). */
const MODEL_FIELDS = ['model', 'model_name'] as const;

/** A copy of `body` with public model names replaced by the channel's upstream names (unmapped names pass through). */
export function applyModelMap(body: Record<string, unknown>, channel: UpstreamChannel): Record<string, unknown> {
  const mapped = { ...body };
  const map = channel.modelMap;
  if (!map) return mapped;
  for (const field of MODEL_FIELDS) {
    const name = mapped[field];
    if (typeof name === 'string' && Object.prototype.hasOwnProperty.call(map, name)) mapped[field] = map[name];
  }
  return mapped;
}
