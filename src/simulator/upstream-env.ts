import type { UpstreamVendor } from '../upstream/vendor';
import { UPSTREAM_VENDORS } from '../upstream/vendors';
import type { RunningSimulator } from './simulator';

/**
 * The `UPSTREAM_*` variables that point a gateway at this simulator as an external upstream (real
 * HTTP, real auth): what `npm run simulator` prints, and what the benchmark and reliability
 * scripts give the production build they start. A vendor that accepts a key pair gets the pair
 * (`withApiKeys`: its API key too), the others their API key.
 */
export function simulatorUpstreamEnv(
  sim: Pick<RunningSimulator, 'endpoints'>,
  options: { vendors?: readonly UpstreamVendor[]; withApiKeys?: boolean } = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const vendor of options.vendors ?? UPSTREAM_VENDORS) {
    const endpoint = sim.endpoints[vendor.id];
    if (!endpoint) continue;
    const names = vendor.env;
    env[names.baseUrl] = endpoint.baseUrl;
    const pair = names.accessKey && names.secretKey && endpoint.accessKey && endpoint.secretKey;
    if (pair) {
      env[names.accessKey!] = endpoint.accessKey!;
      env[names.secretKey!] = endpoint.secretKey!;
    }
    if (!pair || options.withApiKeys) env[names.apiKey] = endpoint.apiKey;
  }
  return env;
}
