import { simPublicModels } from '../simulator/sim-models';
import { RunningSimulator, startSimulator } from '../simulator/simulator';
import { loadChannels } from '../upstream/channels/load-channels';
import { assertModelMapsCover, type PublicModel } from '../upstream/channels/assert-model-maps';
import { identityModelMap } from '../upstream/channels/model-maps';
import { UPSTREAM_FAMILIES, UpstreamChannel, UpstreamFamily } from '../upstream/upstream.types';

export interface ResolvedChannels {
  channels: UpstreamChannel[];
  /** The built-in simulator, when it serves at least one family. */
  simulator: (RunningSimulator & { families: UpstreamFamily[] }) | null;
}

/**
 * Channels simulated families use: the simulator's addresses and credentials, over real HTTP. Their
 * model map is the identity: the simulator accepts the public names as the gateway sends them.
 */
export function simulatorChannels(
  sim: RunningSimulator,
  families: readonly UpstreamFamily[] = UPSTREAM_FAMILIES,
): UpstreamChannel[] {
  const simulated = (family: UpstreamFamily) => ({
    family,
    modelMap: identityModelMap(simPublicModels(family)),
    simulated: true,
  });
  const all: UpstreamChannel[] = [
    {
      id: 'kl-default',
      ...simulated('kl'),
      baseUrl: sim.kl.baseUrl,
      accessKey: sim.kl.accessKey,
      secretKey: sim.kl.secretKey,
    },
    { id: 'ax-default', ...simulated('ax'), baseUrl: sim.ax.baseUrl, apiKey: sim.ax.apiKey },
    { id: 'vd-default', ...simulated('vd'), baseUrl: sim.vd.baseUrl, apiKey: sim.vd.apiKey },
  ];
  return all.filter((c) => families.includes(c.family));
}

/**
 * The configured upstream channels; every family without one is served by the built-in
 * simulator, started on loopback (CONTRACT §1). `catalogue`: the models every real channel must be
 * able to name upstream.
 */
export async function resolveChannels(
  env: NodeJS.ProcessEnv,
  taskMs: number,
  catalogue: readonly PublicModel[] = [],
): Promise<ResolvedChannels> {
  const configured = loadChannels(env);
  // A real channel that cannot name a catalogue model upstream stops the start, not a customer's request.
  assertModelMapsCover(configured, catalogue);
  const missing = UPSTREAM_FAMILIES.filter((family) => !configured.some((c) => c.family === family));
  if (missing.length === 0) return { channels: configured, simulator: null };
  const sim = await startSimulator({ taskMs });
  return {
    channels: [...configured, ...simulatorChannels(sim, missing)],
    simulator: Object.assign(sim, { families: [...missing] }),
  };
}
