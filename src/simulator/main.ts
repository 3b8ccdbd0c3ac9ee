/**
 * Standalone simulator: `npm run simulator`. Prints the env lines the gateway reads, so a gateway
 * started with them talks to these servers as it would to real upstreams.
 */
import { simulatorUpstreamEnv } from './upstream-env';
import { parseChaos } from './chaos';
import { DEFAULT_SIM_TASK_MS, startSimulator } from './simulator';

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

async function main(): Promise<void> {
  const env = process.env;
  const simulator = await startSimulator({
    taskMs: numberFromEnv('SIM_TASK_MS', DEFAULT_SIM_TASK_MS),
    host: env.SIM_HOST || '127.0.0.1',
    ports: {
      kl: numberFromEnv('SIM_PORT_KL', 4001),
      ax: numberFromEnv('SIM_PORT_AX', 4002),
      vd: numberFromEnv('SIM_PORT_VD', 4003),
    },
    credentials: {
      klApiKey: env.SIM_KL_API_KEY,
      klAccessKey: env.SIM_KL_ACCESS_KEY,
      klSecretKey: env.SIM_KL_SECRET_KEY,
      axApiKey: env.SIM_AX_API_KEY,
      vdApiKey: env.SIM_VD_API_KEY,
    },
    chaos: parseChaos(env.SIM_CHAOS),
  });

  // The API key variant of family A's auth, too, for gateways configured with a key instead of a key pair.
  const lines = Object.entries({ ...simulatorUpstreamEnv(simulator), UPSTREAM_KL_API_KEY: simulator.kl.apiKey }).map(
    ([name, value]) => `${name}=${value}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  if (env.SIM_CHAOS) process.stderr.write(`simulator: upstream faults on (SIM_CHAOS=${env.SIM_CHAOS})\n`);

  // Requests are recorded for tests; a long-running standalone simulator must not grow forever.
  const trim = setInterval(() => simulator.reset(), 60_000);
  trim.unref();

  const stop = (signal: NodeJS.Signals): void => {
    process.stderr.write(`simulator: ${signal} received, shutting down\n`);
    clearInterval(trim);
    void simulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`simulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
