/**
 * The built-in upstream simulator: one loopback HTTP server per simulated vendor (`SIM_VENDORS`),
 * each speaking its vendor's protocol (docs/upstream-wire.md), used by `npm start` without real upstreams and by
 * the gateway's e2e tests. The gateway must treat it as a real upstream: real HTTP, real auth.
 */
import { CallbackDispatcher } from './callback-dispatcher';
import { FamilySimulator } from './family';
import { SimServer, startSimServer } from './http/sim-http-server';
import { Chaos, ChaosOptions, ChaosStats } from './chaos';
import { ForcedPatch, RecordedRequest, SimCredentials, SimEndpoint, SimFamily } from './sim-types';
import type { SimVendor } from './sim-vendor';
import { SIM_VENDORS } from './sim-vendors';

export type { ForcedPatch, RecordedRequest, SimCredentials, SimEndpoint, SimFamily } from './sim-types';
export type { SimVendor } from './sim-vendor';
export type { ChaosKind, ChaosOptions, ChaosStats } from './chaos';

export const DEFAULT_SIM_TASK_MS = 3000;

export interface SimulatorOptions {
  /** Time from creation to the terminal state (`sim:slow`: ten times this). Default 3000. */
  taskMs?: number;
  /** Bind address, default `127.0.0.1`. */
  host?: string;
  /** The vendors to play; default: `SIM_VENDORS`. */
  vendors?: readonly SimVendor[];
  /** Port by vendor id; 0 (the default) picks a free port. */
  ports?: Readonly<Record<string, number | undefined>>;
  /** Credentials by vendor id; missing ones are random per start. */
  credentials?: Readonly<Record<string, Partial<SimCredentials> | undefined>>;
  /** Upstream faults (see chaos.ts). Unset: none, the simulator behaves as documented. */
  chaos?: ChaosOptions;
  /** How long result links stay valid (ms), after which they answer 403. Default SIM_RESULT_TTL_MS, else 10 minutes. */
  resultTtlMs?: number;
}

export interface RunningSimulator {
  /** The vendors it plays, in start order. */
  vendors: readonly SimVendor[];
  /** Where each vendor's server listens and what it accepts, by vendor id. */
  endpoints: Readonly<Record<string, SimEndpoint>>;
  /** Every request received by any of the servers, in arrival order (a live array). */
  requests: RecordedRequest[];
  /** Empties `requests` (in place; forced states and tasks are kept). */
  reset(): void;
  /** Task duration for tasks created from now on. */
  setTaskMs(ms: number): void;
  /**
   * Makes the query endpoint of one upstream task (and its callback) answer a changed native
   * payload: an object is deep-merged into the JSON body the query answers (for `kl` that is the
   * whole envelope, so patch `{data: {...}}`), a function maps that body; `null` removes the override.
   * Throws when the family has no such task.
   */
  forceState(family: SimFamily, upstreamTaskId: string, patch: ForcedPatch | null): void;
  /**
   * Ends one upstream task now with its outcome, as if its time were up (a task already ended or
   * cancelled stays as it is), so a test can make it finish at a moment of its choosing. Throws
   * when the family has no such task or no such control.
   */
  finishTask(family: SimFamily, upstreamTaskId: string): void;
  /** Turns upstream faults on (counters start at 0) or off (`null`), for requests from now on. */
  setChaos(options: ChaosOptions | null): void;
  /** What the fault injector did so far (all zeros when chaos was never on); kept after `setChaos(null)`. */
  chaosStats(): ChaosStats;
  /** Stops the servers (hanging requests are cut) and pending callbacks. */
  close(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const vendors = options.vendors ?? SIM_VENDORS;
  let taskMs = validTaskMs(options.taskMs ?? DEFAULT_SIM_TASK_MS);
  const host = options.host ?? '127.0.0.1';
  const requests: RecordedRequest[] = [];
  const callbacks = new CallbackDispatcher();
  const servers: SimServer[] = [];
  const simulators = new Map<SimFamily, FamilySimulator>();
  const endpoints: Record<string, SimEndpoint> = {};
  let chaos: Chaos | undefined = options.chaos ? new Chaos(options.chaos) : undefined;
  let lastChaos: Chaos = chaos ?? new Chaos({ rate: 0 });

  const closeAll = async (): Promise<void> => {
    callbacks.close();
    await Promise.all(servers.map((server) => server.close()));
  };

  try {
    for (const vendor of vendors) {
      const credentials = { ...vendor.randomCredentials(), ...definedOnly(options.credentials?.[vendor.id]) };
      const server = await startSimServer({
        family: vendor.id,
        host,
        port: options.ports?.[vendor.id] ?? 0,
        requests,
        errors: vendor.errors,
        statusWords: vendor.statusWords,
        chaos: () => chaos,
        ...(options.resultTtlMs ? { resultTtlMs: () => options.resultTtlMs as number } : {}),
        createHandler: (baseUrl) => {
          const simulator = vendor.create({ taskMs: () => taskMs, callbacks, credentials, baseUrl });
          simulators.set(vendor.id, simulator);
          return simulator.handle;
        },
      });
      servers.push(server);
      endpoints[vendor.id] = Object.freeze({ baseUrl: server.baseUrl, ...credentials });
    }
  } catch (error) {
    await closeAll(); // e.g. one port was taken: do not leave the others listening.
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    vendors,
    endpoints: Object.freeze(endpoints),
    requests,
    reset() {
      requests.length = 0;
    },
    setTaskMs(ms: number) {
      taskMs = validTaskMs(ms);
    },
    forceState(family, upstreamTaskId, patch) {
      const simulator = simulators.get(family);
      if (!simulator) throw new Error(`unknown simulator family ${String(family)}`);
      simulator.forceState(upstreamTaskId, patch);
    },
    finishTask(family, upstreamTaskId) {
      const simulator = simulators.get(family);
      if (!simulator?.finish) throw new Error(`simulator family ${String(family)} cannot finish tasks early`);
      simulator.finish(upstreamTaskId);
    },
    setChaos(next) {
      chaos = next ? new Chaos(next) : undefined;
      if (chaos) lastChaos = chaos;
    },
    chaosStats() {
      return lastChaos.stats();
    },
    close() {
      closing ??= closeAll();
      return closing;
    },
  };
}

function definedOnly(partial: Partial<SimCredentials> | undefined): Partial<SimCredentials> {
  return Object.fromEntries(
    Object.entries(partial ?? {}).filter(([, value]) => typeof value === 'string' && value !== ''),
  );
}

function validTaskMs(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`taskMs must be a non-negative number, got ${ms}`);
  return ms;
}
