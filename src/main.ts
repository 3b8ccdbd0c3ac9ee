import 'reflect-metadata';
import { randomBytes } from 'crypto';
import { createGatewayApp } from './app.factory';
import { ConfigError, loadConfig } from './platform/config/app-config';
import { seedDemoAccount } from './bootstrap/demo-seed';
import { resolveChannels } from './bootstrap/resolve-channels';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const { channels, simulator } = await resolveChannels(process.env, config.SIM_TASK_MS);
  const adminToken = config.ADMIN_TOKEN ?? randomBytes(24).toString('base64url');
  const app = await createGatewayApp({ config, channels, adminToken });
  await app.listen(config.PORT);
  const demoKey = await seedDemoAccount(app, config.DEMO_SEED, simulator !== null);
  const url = `http://localhost:${config.PORT}`;
  const lines = [`Gateway listening on ${url} (docs: ${url}/docs)`];
  if (!config.ADMIN_TOKEN) lines.push(`Admin token (generated, shown once): ${adminToken}`);
  if (simulator) lines.push(`Upstream: built-in simulator for ${simulator.families.join(', ')}`);
  if (demoKey) lines.push(`Demo account API key (every model enabled, shown once): ${demoKey}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = async () => {
    await app.close();
    await simulator?.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

bootstrap().catch((error: unknown) => {
  // One clear line for configuration faults; the rest is a real crash.
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`Gateway failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
