import { simulatorChannels } from '../../src/bootstrap/resolve-channels';
import { FamilyRegistry } from '../../src/families/family-registry';
import { RunningSimulator, SimVendor, startSimulator } from '../../src/simulator/simulator';
import type { UpstreamVendor } from '../../src/upstream/vendor';
import { Harness, TestAccount, startGateway } from './gateway-harness';

export interface SimulatedGateway extends Harness {
  sim: RunningSimulator;
}

/** Fast settings so a task's whole life fits in a test: quick sync, quick callbacks. */
export const FAST_ENV = {
  SYNC_INTERVAL_MS: '20',
  SYNC_POLL_BASE_MS: '20',
  SYNC_POLL_MAX_MS: '100',
  CALLBACK_RETRY_BASE_MS: '50',
  CALLBACK_ALLOW_PRIVATE: 'true',
};

/** The gateway pointed at the built-in simulator over real HTTP, as `npm start` runs it. */
export async function startSimulatedGateway(
  options: {
    taskMs?: number;
    env?: Record<string, string>;
    sim?: RunningSimulator;
    keepData?: boolean;
    /** The lists the gateway and its simulator are built from (default: the repository's). */
    families?: FamilyRegistry;
    vendors?: readonly UpstreamVendor[];
    simVendors?: readonly SimVendor[];
  } = {},
): Promise<SimulatedGateway> {
  const sim = options.sim ?? (await startSimulator({ taskMs: options.taskMs ?? 150, vendors: options.simVendors }));
  let gw: Harness;
  try {
    gw = await startGateway({
      channels: simulatorChannels(sim),
      env: { ...FAST_ENV, ...options.env },
      keepData: options.keepData,
      families: options.families,
      vendors: options.vendors,
    });
  } catch (error) {
    // A simulator left listening would keep jest from exiting after the run.
    if (!options.sim) await sim.close();
    throw error;
  }
  return {
    ...gw,
    sim,
    close: async () => {
      await gw.close();
      if (!options.sim) await sim.close();
    },
  };
}

/**
 * Polls `check` until it returns a value or the time runs out. The default wait is long enough for a CI worker
 * that stalls for seconds; a passing check returns at once, so only a failing test waits it out.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
  everyMs = 25,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}

export function bearer(account: TestAccount): [string, string] {
  return ['Authorization', `Bearer ${account.key}`];
}

/** An ax task (`wx2.7-r2v`, one reference image) created by `account`; its public ID. */
export async function createAxTask(gw: Harness, account: TestAccount): Promise<string> {
  const created = await gw
    .http()
    .post('/ax/api/v1/services/aigc/video-generation/video-synthesis')
    .set(...bearer(account))
    .send({
      model: 'wx2.7-r2v',
      input: { prompt: 'Image 1 walks', media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
      parameters: { resolution: '720P', duration: 5 },
    })
    .expect(200);
  return created.body.output.task_id as string;
}
