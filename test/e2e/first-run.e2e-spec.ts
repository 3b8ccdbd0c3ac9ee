import { ChildProcess, spawn } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join, resolve } from 'path';

/**
 * `npm start` as a newcomer runs it: src/main.ts in its own process, in an empty directory, with
 * nothing configured but a `.env` file. Covers what only the real entry point does: `.env` read
 * (real environment variables win), the admin token kept in data/admin-token across a restart,
 * JSON logs when stdout is not a terminal with Nest's start-up chatter left out, the banner last,
 * and one clear line for a bad setting.
 */
const ROOT = resolve(__dirname, '../..');
const MAIN = join(ROOT, 'src/main.ts');
const START_TIMEOUT_MS = 60_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** The process environment minus everything the gateway reads: a fresh machine. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      /^(PORT|DATABASE_URL|REDIS_URL|ADMIN_TOKEN.*|LOG_.*|DEMO_SEED|SIM_.*|UPSTREAM_.*|PUBLIC_BASE_URL|JEST_.*)$/.test(
        key,
      )
    )
      continue;
    env[key] = value;
  }
  return { ...env, TS_NODE_TRANSPILE_ONLY: 'true', TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'), ...extra };
}

interface Run {
  child: ChildProcess;
  stdout: string[];
  stderr: string;
  exited: Promise<number | null>;
}

function run(cwd: string, extraEnv: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, ['-r', require.resolve('ts-node/register'), MAIN], {
    cwd,
    env: cleanEnv(extraEnv),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const result: Run = {
    child,
    stdout: [],
    stderr: '',
    exited: new Promise((r) => child.once('exit', (code) => r(code))),
  };
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    result.stdout.push(...lines);
  });
  child.stderr!.on('data', (chunk: Buffer) => (result.stderr += chunk.toString()));
  return result;
}

/** Waits for the banner (its last line is the demo line here: the simulator is in use). */
async function banner(r: Run): Promise<string[]> {
  const until = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < until) {
    const at = r.stdout.findIndex((l) => /^Demo (API key|account)/.test(l));
    if (at >= 0) return r.stdout.slice(0, at + 1);
    if (r.child.exitCode !== null) throw new Error(`gateway exited ${r.child.exitCode}: ${r.stderr}`);
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`no banner within ${START_TIMEOUT_MS} ms; stdout: ${r.stdout.join('\n')}; stderr: ${r.stderr}`);
}

async function stop(r: Run): Promise<void> {
  if (r.child.exitCode === null) r.child.kill('SIGTERM');
  await r.exited;
}

describe('first run of npm start', () => {
  jest.setTimeout(3 * START_TIMEOUT_MS);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-first-run-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads .env, keeps the admin token across a restart, logs JSON off a terminal and prints the banner last', async () => {
    const [filePort, envPort] = [await freePort(), await freePort()];
    writeFileSync(join(dir, '.env'), `# as .env.example suggests\nPORT=${filePort}\nSIM_TASK_MS=200\nLOG_LEVEL=warn\n`);

    // First start: PORT from .env; LOG_LEVEL from the real environment, which wins over the file.
    const first = run(dir, { LOG_LEVEL: 'info' });
    let tokenFile: string;
    let token: string;
    let demoAccount: string;
    try {
      const out = await banner(first);
      const lines = out.slice(-5);
      expect(lines[0]).toBe(
        `Gateway listening on http://localhost:${filePort} (OpenAPI: http://localhost:${filePort}/docs)`,
      );
      expect(lines[1]).toBe(`Console: http://localhost:${filePort}/console (sign in with the admin token)`);
      const shown =
        /^Admin token \(generated, shown once\): (\S+) - kept in data\/admin-token \(mode 0600, reused at every start; ADMIN_TOKEN overrides it\)$/.exec(
          lines[2],
        );
      expect(shown).not.toBeNull();
      expect(lines[3]).toBe('Upstream: built-in simulator for kl, ax, vd');
      const demo =
        /^Demo API key \(account (acct_\w+), every model enabled; shown only now; npm run demo and the README use API_KEY\): export API_KEY=(\S+)$/.exec(
          lines[4],
        );
      expect(demo).not.toBeNull();
      demoAccount = demo![1];

      // Every line before the banner is a JSON log line (stdout is a pipe), at info since the
      // environment said so, without Nest's per-module and per-route chatter.
      const logs = out.slice(0, -5).map((l) => JSON.parse(l) as { level: number; msg: string; context?: string });
      expect(
        logs.some((l) => l.level === 30 && l.context === 'Startup' && l.msg.startsWith(`read ${join(dir, '.env')}`)),
      ).toBe(true);
      expect(
        logs.filter((l) =>
          ['InstanceLoader', 'RouterExplorer', 'RoutesResolver', 'NestFactory', 'NestApplication'].includes(
            l.context ?? '',
          ),
        ),
      ).toEqual([]);

      tokenFile = join(dir, 'data', 'admin-token');
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      token = readFileSync(tokenFile, 'utf8').trim();
      // Printed once, on the start that generated it; the restart below names only the file.
      expect(shown![1]).toBe(token);
      expect(out.join('\n').split(token).length - 1).toBe(1);
      const base = `http://127.0.0.1:${filePort}`;
      // The console the banner names is there.
      expect((await fetch(`${base}/console`)).status).toBe(200);
      expect((await fetch(`${base}/admin/v1/prices`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
        200,
      );
      // The demo key is a working API key: a task it does not own is 404, not 401.
      expect(
        (
          await fetch(`${base}/vd/ent/v2/tasks/task_nope/creations`, {
            headers: { authorization: `Bearer ${demo![2]}` },
          })
        ).status,
      ).toBe(404);
    } finally {
      await stop(first);
    }

    // Restart, now with PORT set in the environment: it wins over .env; the same admin token works.
    const second = run(dir, { PORT: String(envPort) });
    try {
      const shown = await banner(second);
      const lines = shown.slice(-5);
      expect(lines[0]).toBe(
        `Gateway listening on http://localhost:${envPort} (OpenAPI: http://localhost:${envPort}/docs)`,
      );
      expect(lines[2]).toBe(
        'Admin token: kept in data/admin-token (mode 0600, reused at every start; ADMIN_TOKEN overrides it): export ADMIN=$(cat data/admin-token)',
      );
      expect(lines[4]).toBe(
        `Demo account: ${demoAccount} (its key was shown at its first start; npm run demo -- --new-key creates a new demo account with its own key)`,
      );
      expect(readFileSync(tokenFile, 'utf8').trim()).toBe(token);
      expect(second.stdout.join('\n')).not.toContain(token);
      expect(
        (await fetch(`http://127.0.0.1:${envPort}/admin/v1/prices`, { headers: { authorization: `Bearer ${token}` } }))
          .status,
      ).toBe(200);
      // LOG_LEVEL=warn from .env this time: nothing before the banner, and after it a warning at most (a
      // loaded machine may log one), never an info line.
      expect(shown.slice(0, -5)).toEqual([]);
      for (const line of second.stdout.slice(shown.length))
        expect((JSON.parse(line) as { level: number }).level).toBeGreaterThanOrEqual(40);
    } finally {
      await stop(second);
    }
  });

  it('PORT=abc stops the start with one line: must be an integer', async () => {
    const r = run(dir, { PORT: 'abc' });
    expect(await r.exited).toBe(1);
    expect(r.stderr).toBe('Invalid configuration: PORT="abc": PORT must be an integer number\n');
  });

  it('a bad ADMIN_TOKEN stops the start without printing the token', async () => {
    const r = run(dir, { ADMIN_TOKEN: 'short-secret' });
    expect(await r.exited).toBe(1);
    expect(r.stderr).toBe(
      'Invalid configuration: ADMIN_TOKEN (value hidden, 12 characters): ADMIN_TOKEN must be at least 16 characters\n',
    );
    expect(r.stdout.join('\n')).not.toContain('short-secret');
  });
});
