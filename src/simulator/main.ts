/**
 * Standalone simulator: `npm run simulator`. Prints the env lines the gateway reads, so a gateway
 * started with them talks to these servers as it would to real upstreams.
 */
import { simulatorUpstreamEnv } from './upstream-env';
import { parseChaos } from './chaos';
import { DEFAULT_SIM_TASK_MS, startSimulator } from './simulator';
import { SIM_VENDORS } from './sim-vendors';

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
    // SIM_PORT_<ID> and SIM_<ID>_API_KEY / _ACCESS_KEY / _SECRET_KEY per vendor.
    ports: Object.fromEntries(
      SIM_VENDORS.map((v) => [v.id, numberFromEnv(`SIM_PORT_${v.id.toUpperCase()}`, v.defaultPort)]),
    ),
    credentials: Object.fromEntries(
      SIM_VENDORS.map((v) => {
        const prefix = `SIM_${v.id.toUpperCase()}`;
        const keys = {
          apiKey: env[`${prefix}_API_KEY`],
          accessKey: env[`${prefix}_ACCESS_KEY`],
          secretKey: env[`${prefix}_SECRET_KEY`],
        };
        return [v.id, keys];
      }),
    ),
    chaos: parseChaos(env.SIM_CHAOS),
  });

  // The API key of key-pair vendors too, for gateways configured with a key instead of a key pair.
  const lines = Object.entries(simulatorUpstreamEnv(simulator, { withApiKeys: true })).map(
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
