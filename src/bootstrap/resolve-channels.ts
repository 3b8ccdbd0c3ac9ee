import { RunningSimulator, startSimulator } from '../simulator/simulator';
import type { SimVendor } from '../simulator/sim-vendor';
import { SIM_VENDORS } from '../simulator/sim-vendors';
import { loadChannels } from '../upstream/channel-routing/load-channels';
import { assertChannelModels } from '../upstream/channel-routing/assert-channel-models';
import { assertModelMapsCover, type PublicModel } from '../upstream/channel-routing/assert-model-maps';
import { identityModelMap } from '../upstream/channel-routing/model-maps';
import { UpstreamChannel, UpstreamFamily } from '../upstream/upstream.types';
import type { UpstreamVendor } from '../upstream/vendor';
import { UPSTREAM_VENDORS } from '../upstream/vendors';

export interface ResolvedChannels {
  channels: UpstreamChannel[];
  /** The built-in simulator, when it serves at least one family. */
  simulator: (RunningSimulator & { families: UpstreamFamily[] }) | null;
}

/** The vendor lists a gateway is built from; tests extend them. */
export interface VendorLists {
  readonly vendors: readonly UpstreamVendor[];
  readonly simVendors: readonly SimVendor[];
}

export const DEFAULT_VENDOR_LISTS: VendorLists = { vendors: UPSTREAM_VENDORS, simVendors: SIM_VENDORS };

/**
 * Channels simulated families use: the simulator's addresses and credentials, over real HTTP. Their
 * model map is the identity: the simulator accepts the public names as the gateway sends them.
 */
export function simulatorChannels(
  sim: Pick<RunningSimulator, 'vendors' | 'endpoints'>,
  families: readonly UpstreamFamily[] = sim.vendors.map((vendor) => vendor.id),
): UpstreamChannel[] {
  return sim.vendors
    .filter((vendor) => families.includes(vendor.id))
    .map((vendor) => {
      const { baseUrl, apiKey, accessKey, secretKey } = sim.endpoints[vendor.id];
      // A key pair when the vendor has one (it exercises the token signing), else the API key.
      const keys = accessKey && secretKey ? { accessKey, secretKey } : { apiKey };
      return {
        id: `${vendor.id}-default`,
        family: vendor.id,
        modelMap: identityModelMap(Object.keys(vendor.models)),
        simulated: true,
        baseUrl,
        ...keys,
      };
    });
}

/**
 * The configured upstream channels; every vendor without one is served by the built-in simulator,
 * started on loopback, so the gateway runs with no upstream configured. `catalogue`: the models
 * every real channel must be able to name upstream.
 */
export async function resolveChannels(
  env: NodeJS.ProcessEnv,
  taskMs: number,
  catalogue: readonly PublicModel[] = [],
  lists: VendorLists = DEFAULT_VENDOR_LISTS,
): Promise<ResolvedChannels> {
  const configured = loadChannels(env, lists.vendors);
  // A real channel that cannot name a catalogue model upstream stops the start, not a customer's request.
  assertModelMapsCover(configured, catalogue);
  assertChannelModels(configured, catalogue);
  const missing = lists.vendors
    .map((vendor) => vendor.id)
    .filter((family) => !configured.some((c) => c.family === family));
  const simulated = lists.simVendors.filter((vendor) => missing.includes(vendor.id));
  if (simulated.length === 0) return { channels: configured, simulator: null };
  const sim = await startSimulator({ taskMs, vendors: simulated });
  return {
    channels: [...configured, ...simulatorChannels(sim)],
    simulator: Object.assign(sim, { families: simulated.map((vendor) => vendor.id) }),
  };
}
