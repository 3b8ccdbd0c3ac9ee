import type { RunningSimulator } from './simulator';

/**
 * The `UPSTREAM_*` variables that point a gateway at this simulator as an external upstream (real
 * HTTP, real auth): what `npm run simulator` prints, and what the benchmark and reliability
 * scripts give the production build they start. Family A gets its access/secret key pair (JWT).
 */
export function simulatorUpstreamEnv(sim: Pick<RunningSimulator, 'kl' | 'ax' | 'vd'>): Record<string, string> {
  return {
    UPSTREAM_KL_BASE_URL: sim.kl.baseUrl,
    UPSTREAM_KL_ACCESS_KEY: sim.kl.accessKey,
    UPSTREAM_KL_SECRET_KEY: sim.kl.secretKey,
    UPSTREAM_AX_BASE_URL: sim.ax.baseUrl,
    UPSTREAM_AX_API_KEY: sim.ax.apiKey,
    UPSTREAM_VD_BASE_URL: sim.vd.baseUrl,
    UPSTREAM_VD_API_KEY: sim.vd.apiKey,
  };
}
