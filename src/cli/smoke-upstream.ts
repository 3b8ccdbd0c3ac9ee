import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadChannels } from '../upstream/channel-routing/load-channels';
import type { SmokeDeps } from '../upstream/smoke';
import { formatSmokeReport, runSmoke, smokeExitCode } from '../upstream/smoke';
import { UpstreamClients } from '../upstream/upstream-clients';
import { UpstreamModule } from '../upstream/upstream.module';

interface Output {
  write(text: string): unknown;
}

const DEFAULT_POLL_MS = 15_000;
const DEFAULT_TIMEOUT_MS = 20 * 60_000;

/**
 * `npm run smoke:upstream`: with real upstream credentials in the environment (the same
 * `UPSTREAM_*` variables the gateway reads), creates the cheapest task of every configured family
 * against the real service, follows it to its end through the gateway's own clients, and prints
 * every field seen next to what the gateway expects. Without credentials it says so and returns 0.
 * Returns 1 when anything differs. The tasks are real and billed by the vendors.
 */
export async function runSmokeUpstream(
  env: NodeJS.ProcessEnv = process.env,
  out: Output = process.stdout,
  err: Output = process.stderr,
  overrides: Partial<SmokeDeps> = {},
): Promise<number> {
  let channels;
  try {
    channels = loadChannels(env).filter((channel) => !channel.simulated);
  } catch (error) {
    err.write(`smoke:upstream: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  if (channels.length === 0) {
    out.write(
      'smoke:upstream: no upstream credentials in the environment (UPSTREAM_KL_*, UPSTREAM_AX_*, UPSTREAM_VD_* or UPSTREAM_CHANNELS); nothing to check.\n',
    );
    return 0;
  }
  const families = [...new Set(channels.map((channel) => channel.family))].join(', ');
  err.write(
    `smoke:upstream: creating one real (billed) task per family: ${families}. This can take several minutes.\n`,
  );
  const context = await NestFactory.createApplicationContext(UpstreamModule.forRoot({ channels }), { logger: false });
  try {
    const rows = await runSmoke(channels, {
      clients: context.get(UpstreamClients),
      env,
      pollMs: positiveNumber(env.SMOKE_POLL_MS) ?? DEFAULT_POLL_MS,
      timeoutMs: positiveNumber(env.SMOKE_TIMEOUT_MS) ?? DEFAULT_TIMEOUT_MS,
      now: () => Date.now(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      probeUrl,
      progress: (line) => err.write(`smoke:upstream: ${line}\n`),
      ...overrides,
    });
    out.write(`${formatSmokeReport(rows)}\n`);
    return smokeExitCode(rows);
  } finally {
    await context.close();
  }
}

/** The first kilobyte of a result file: enough to see that it is served, and as what. */
async function probeUrl(url: string): Promise<{ status: number; contentType: string }> {
  const response = await fetch(url, { headers: { Range: 'bytes=0-1023' }, signal: AbortSignal.timeout(20_000) });
  await response.body?.cancel().catch(() => undefined);
  return { status: response.status, contentType: response.headers.get('content-type') ?? '' };
}

function positiveNumber(value: string | undefined): number | undefined {
  const parsed = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isFinite(parsed) && parsed > 0 ? parsed : undefined;
}

if (require.main === module) {
  void runSmokeUpstream().then((code) => {
    process.exitCode = code;
  });
}
