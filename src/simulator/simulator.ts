/**
 * The built-in upstream simulator: one loopback HTTP server per upstream protocol (family A `kl`,
 * B `ax`, C `vd`) speaking docs/upstream-wire.md, used by `npm start` without real upstreams and by
 * the gateway's e2e tests. The gateway must treat it as a real upstream: real HTTP, real auth.
 */
import { createAxSimulator } from './ax/ax-simulator';
import { CallbackDispatcher } from './callback-dispatcher';
import { FamilySimulator } from './family';
import { KL_ERRORS } from './kl/kl-envelope';
import { createKlSimulator } from './kl/kl-simulator';
import { AX_ERRORS } from './ax/ax-errors';
import { VD_ERRORS } from './vd/vd-errors';
import { createVdSimulator } from './vd/vd-simulator';
import { NativeErrors } from './http/sim-answer';
import { SimServer, startSimServer } from './http/sim-http-server';
import { hexId } from './ids';
import { Chaos, ChaosOptions, ChaosStats } from './chaos';
import { ForcedPatch, RecordedRequest, SimFamily, SimulatorCredentials } from './sim-types';

export type { ForcedPatch, RecordedRequest, SimFamily, SimulatorCredentials } from './sim-types';
export type { ChaosKind, ChaosOptions, ChaosStats } from './chaos';

export const DEFAULT_SIM_TASK_MS = 3000;

export interface SimulatorOptions {
  /** Time from creation to the terminal state (`sim:slow`: ten times this). Default 3000. */
  taskMs?: number;
  /** Bind address, default `127.0.0.1`. */
  host?: string;
  /** 0 (the default) picks a free port. */
  ports?: { kl?: number; ax?: number; vd?: number };
  /** Missing credentials are random per start. */
  credentials?: Partial<SimulatorCredentials>;
  /** Upstream faults (see chaos.ts). Unset: none, the simulator behaves as documented. */
  chaos?: ChaosOptions;
}

export interface RunningSimulator {
  /** `baseUrl` is the server origin, e.g. `http://127.0.0.1:PORT` (the client appends `/v1/...`). */
  kl: { baseUrl: string; apiKey: string; accessKey: string; secretKey: string };
  ax: { baseUrl: string; apiKey: string };
  vd: { baseUrl: string; apiKey: string };
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
  /** Turns upstream faults on (counters start at 0) or off (`null`), for requests from now on. */
  setChaos(options: ChaosOptions | null): void;
  /** What the fault injector did so far (all zeros when chaos was never on); kept after `setChaos(null)`. */
  chaosStats(): ChaosStats;
  /** Stops the servers (hanging requests are cut) and pending callbacks. */
  close(): Promise<void>;
}

interface FamilySpec {
  family: SimFamily;
  errors: NativeErrors;
  create: typeof createKlSimulator;
}

const FAMILIES: readonly FamilySpec[] = [
  { family: 'kl', errors: KL_ERRORS, create: createKlSimulator },
  { family: 'ax', errors: AX_ERRORS, create: createAxSimulator },
  { family: 'vd', errors: VD_ERRORS, create: createVdSimulator },
];

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const credentials: SimulatorCredentials = { ...randomCredentials(), ...definedOnly(options.credentials) };
  let taskMs = validTaskMs(options.taskMs ?? DEFAULT_SIM_TASK_MS);
  const host = options.host ?? '127.0.0.1';
  const requests: RecordedRequest[] = [];
  const callbacks = new CallbackDispatcher();
  const servers: SimServer[] = [];
  const simulators = new Map<SimFamily, FamilySimulator>();
  const baseUrls = new Map<SimFamily, string>();
  let chaos: Chaos | undefined = options.chaos ? new Chaos(options.chaos) : undefined;
  let lastChaos: Chaos = chaos ?? new Chaos({ rate: 0 });

  const closeAll = async (): Promise<void> => {
    callbacks.close();
    await Promise.all(servers.map((server) => server.close()));
  };

  try {
    for (const spec of FAMILIES) {
      const server = await startSimServer({
        family: spec.family,
        host,
        port: options.ports?.[spec.family] ?? 0,
        requests,
        errors: spec.errors,
        chaos: () => chaos,
        createHandler: (baseUrl) => {
          const simulator = spec.create({ taskMs: () => taskMs, callbacks, credentials, baseUrl });
          simulators.set(spec.family, simulator);
          return simulator.handle;
        },
      });
      servers.push(server);
      baseUrls.set(spec.family, server.baseUrl);
    }
  } catch (error) {
    await closeAll(); // e.g. one port was taken: do not leave the others listening.
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    kl: {
      baseUrl: baseUrls.get('kl')!,
      apiKey: credentials.klApiKey,
      accessKey: credentials.klAccessKey,
      secretKey: credentials.klSecretKey,
    },
    ax: { baseUrl: baseUrls.get('ax')!, apiKey: credentials.axApiKey },
    vd: { baseUrl: baseUrls.get('vd')!, apiKey: credentials.vdApiKey },
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

function randomCredentials(): SimulatorCredentials {
  return {
    klApiKey: `sim-kl-${hexId(16)}`,
    klAccessKey: `sim-ak-${hexId(8)}`,
    klSecretKey: `sim-sk-${hexId(16)}`,
    axApiKey: `sk-sim${hexId(16)}`,
    vdApiKey: `sim-vd-${hexId(16)}`,
  };
}

function definedOnly(partial: Partial<SimulatorCredentials> | undefined): Partial<SimulatorCredentials> {
  return Object.fromEntries(
    Object.entries(partial ?? {}).filter(([, value]) => typeof value === 'string' && value !== ''),
  );
}

function validTaskMs(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`taskMs must be a non-negative number, got ${ms}`);
  return ms;
}
