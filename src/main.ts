// First: tracing, when the OTEL_* variables ask for it (its instrumentation patches Express, pg and ioredis as they load).
import './platform/telemetry/preload';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createGatewayApp } from './app.factory';
import { FAMILIES } from './families';
import { FamilyRegistry } from './families/family-registry';
import { ConfigError, loadConfig } from './platform/config/app-config';
import { loadEnvFile } from './platform/config/env-file';
import { resolveAdminToken } from './bootstrap/admin-token-file';
import { seedDemoAccount } from './bootstrap/demo-seed';
import { resolveChannels } from './bootstrap/resolve-channels';
import { startBanner } from './bootstrap/start-banner';
import { shutdownTracing } from './platform/telemetry/spans';

async function bootstrap(): Promise<void> {
  // `.env` first (real environment variables win over it), then one validated configuration.
  const envFile = await loadEnvFile();
  const config = loadConfig();
  const admin = resolveAdminToken(config);
  const families = new FamilyRegistry(FAMILIES);
  const { channels, simulator } = await resolveChannels(process.env, config.SIM_TASK_MS, families.all());
  const app = await createGatewayApp({ config, channels, adminToken: admin.token, families });
  const logger = new Logger('Startup');
  if (envFile) logger.log(`read ${envFile} (variables set in the environment win over it)`);
  if (admin.tightened) logger.warn(`${admin.file} was readable by other users; its mode is now 0600`);
  await app.listen(config.PORT);
  const demo = await seedDemoAccount(app, config.DEMO_SEED, simulator !== null);
  const lines = startBanner({
    url: `http://localhost:${config.PORT}`,
    admin,
    simulated: simulator?.families ?? [],
    channels: channels.filter((c) => !simulator || !simulator.families.includes(c.family)),
    demo,
  });
  // Last, after every start-up log line, so that it is what a person sees.
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = async () => {
    await app.close();
    await simulator?.close();
    await shutdownTracing();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

bootstrap().catch((error: unknown) => {
  // One clear line for configuration faults; the rest is a real crash.
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
    process.stderr.write(`Gateway failed to start: ${(error as Error).message}: stop the other process or set PORT\n`);
  else process.stderr.write(`Gateway failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
