import { RunningSimulator, startSimulator } from '../simulator/simulator';
import { loadChannels } from '../upstream/channels/load-channels';
import { UpstreamChannel, UpstreamFamily } from '../upstream/upstream.types';

export interface ResolvedChannels {
  channels: UpstreamChannel[];
  /** The built-in simulator, when it serves at least one family. */
  simulator: (RunningSimulator & { families: UpstreamFamily[] }) | null;
}

/** Channels simulated families use: the simulator's addresses and credentials, over real HTTP. */
export function simulatorChannels(sim: RunningSimulator, families: readonly UpstreamFamily[] = ['kl', 'ax', 'vd']): UpstreamChannel[] {
  const all: UpstreamChannel[] = [
    { id: 'kl-default', family: 'kl', baseUrl: sim.kl.baseUrl, accessKey: sim.kl.accessKey, secretKey: sim.kl.secretKey },
    { id: 'ax-default', family: 'ax', baseUrl: sim.ax.baseUrl, apiKey: sim.ax.apiKey },
    { id: 'vd-default', family: 'vd', baseUrl: sim.vd.baseUrl, apiKey: sim.vd.apiKey },
  ];
  return all.filter((c) => families.includes(c.family));
}

/**
 * The configured upstream channels; every family without one is served by the built-in
 * simulator, started on loopback (CONTRACT §1).
 */
export async function resolveChannels(env: NodeJS.ProcessEnv, taskMs: number): Promise<ResolvedChannels> {
  const configured = loadChannels(env);
  const missing = (['kl', 'ax', 'vd'] as const).filter((family) => !configured.some((c) => c.family === family));
  if (missing.length === 0) return { channels: configured, simulator: null };
  const sim = await startSimulator({ taskMs });
  return { channels: [...configured, ...simulatorChannels(sim, missing)], simulator: Object.assign(sim, { families: [...missing] }) };
}
