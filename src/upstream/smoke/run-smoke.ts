import type { UpstreamChannel } from '../upstream.types';
import type { UpstreamVendor } from '../vendor';
import { UPSTREAM_VENDORS } from '../vendors';
import { SmokeDeps, smokeFamily } from './smoke-family';
import type { SmokeRow } from './smoke-types';

/**
 * One cheapest task per configured family, on that family's first real channel, all families at
 * once (a task takes minutes). Simulated channels are never smoke-tested.
 */
export async function runSmoke(
  channels: readonly UpstreamChannel[],
  deps: SmokeDeps,
  vendors: readonly UpstreamVendor[] = UPSTREAM_VENDORS,
): Promise<SmokeRow[]> {
  const targets = vendors.flatMap((vendor) => {
    const channel = channels.find((candidate) => candidate.family === vendor.id && !candidate.simulated);
    return channel ? [{ plan: vendor.smokePlan, channel }] : [];
  });
  const results = await Promise.all(targets.map(({ plan, channel }) => smokeFamily(plan, channel, deps)));
  return results.flat();
}
