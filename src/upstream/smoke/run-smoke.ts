import { UPSTREAM_FAMILIES, type UpstreamChannel } from '../upstream.types';
import { SmokeDeps, smokeFamily } from './smoke-family';
import { SMOKE_PLANS } from './smoke-plans';
import type { SmokeRow } from './smoke-types';

/**
 * One cheapest task per configured family, on that family's first real channel, all families at
 * once (a task takes minutes). Simulated channels are never smoke-tested.
 */
export async function runSmoke(channels: readonly UpstreamChannel[], deps: SmokeDeps): Promise<SmokeRow[]> {
  const targets = UPSTREAM_FAMILIES.flatMap((family) => {
    const channel = channels.find((candidate) => candidate.family === family && !candidate.simulated);
    return channel ? [{ plan: SMOKE_PLANS[family], channel }] : [];
  });
  const results = await Promise.all(targets.map(({ plan, channel }) => smokeFamily(plan, channel, deps)));
  return results.flat();
}
