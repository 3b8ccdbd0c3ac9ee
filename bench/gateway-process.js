'use strict';
/**
 * The gateway and the bare forwarder as child processes of a benchmark: the production build (or a
 * variant from build-variant.js) started as an operator runs it, against an in-process simulator as
 * an external upstream, with an account, its grants and an API key ready.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const lib = require('./lib');

const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

/**
 * Starts a gateway on a fresh SQLite file (or `pgUrl`, schema dropped and re-created first, with
 * `redisUrl`) and resolves once it answers /healthz and has a funded account and an API key.
 *
 * `main`: the entry point; `nodeArgs`: node flags after those of `npm start`; `extraArgs`: flags
 * after those (e.g. `--require` of a preload); `defaultPolls`: false pushes every poll an hour away,
 * so no task changes state during the run; `env`: settings laid over the defaults (last word);
 * `keepLogs`: leave the log and database behind on stop; `resetDatabase` false: a PostgreSQL database
 * another instance already set up is used as it is (several instances on one database).
 */
async function startGateway(
  sim,
  {
    tag,
    main = path.join(lib.ROOT, 'dist/src/main.js'),
    pgUrl = null,
    redisUrl = null,
    nodeArgs = [],
    extraArgs = [],
    defaultPolls = false,
    env: extraEnv = {},
    keepLogs = false,
    resetDatabase = true,
    log = () => undefined,
  },
) {
  const dir = lib.tempDir(`gw-bench-${tag}-`);
  if (pgUrl && resetDatabase) await resetPostgres(pgUrl, log);
  const port = await lib.freePort();
  const logFile = path.join(dir, 'gateway.log');
  const logFd = fs.openSync(logFile, 'a');
  const env = {
    PORT: String(port),
    DATABASE_URL: pgUrl ?? `sqlite:${path.join(dir, 'gateway.sqlite')}`,
    // Kept result files (finished tasks) go to the run's own directory.
    RESULT_STORE_DIR: path.join(dir, 'results'),
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    LOG_LEVEL: 'info',
    ADMIN_TOKEN,
    DEMO_SEED: 'false',
    DEFAULT_RATE_LIMIT_RPM: '100000000',
    DEFAULT_MAX_CONCURRENT_TASKS: '100000000',
    ...lib.requireDist('simulator/upstream-env.js').simulatorUpstreamEnv(sim),
    // Unless asked for, tasks are not due for a poll during the run (the worker still runs its cycle every second).
    ...(defaultPolls ? {} : { SYNC_POLL_BASE_MS: '3600000', SYNC_POLL_MAX_MS: '3600000' }),
    NODE_ENV: 'production',
    ...extraEnv,
  };
  for (const key of Object.keys(process.env))
    if (/^(UPSTREAM_|SIM_|DATABASE_URL|REDIS_URL)/.test(key) && !(key in env)) delete process.env[key];
  const child = spawn(process.execPath, [...lib.START_FLAGS, ...nodeArgs, ...extraArgs, main], {
    cwd: lib.ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', logFd, logFd],
  });
  fs.closeSync(logFd);
  // A bench that dies (an exception, Ctrl-C) takes its gateway with it: one left running would keep
  // polling and settling in the next run's PostgreSQL database.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  child.once('exit', () => process.removeListener('exit', reap));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`gateway exited (code ${child.exitCode}): ${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > until) throw new Error('gateway did not answer /healthz within 30 s');
    await lib.sleep(100);
  }
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const account = await lib.httpJson('POST', `${url}/admin/v1/accounts`, {
    headers: admin,
    body: { name: 'bench', balance: 1_000_000_000_000_000 },
  });
  await lib.httpJson('PUT', `${url}/admin/v1/accounts/${account.id}/models`, {
    headers: admin,
    body: { models: [{ model: 'wx2.7-r2v' }, { model: 'vdq3' }] },
  });
  const key = await lib.httpJson('POST', `${url}/admin/v1/accounts/${account.id}/keys`, {
    headers: admin,
    body: { name: 'bench' },
  });
  log(`gateway up on ${url} (pid ${child.pid}, db and log in ${dir})`);
  return {
    name: 'gateway',
    url,
    pid: child.pid,
    child,
    apiKey: key.key,
    accountId: account.id,
    adminHeaders: admin,
    served: 0,
    requestsServed() {
      return this.served;
    },
    logBytes: () => fs.statSync(logFile).size,
    async stop() {
      await lib.stopChild(child, 15_000);
      if (keepLogs) log(`kept ${dir}`);
      else fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** bench/forwarder.js in front of the simulator's ax and vd servers. */
async function startForwarder(sim, { log = () => undefined } = {}) {
  const { child, match } = await lib.startChild('forwarder', [path.join(__dirname, 'forwarder.js')], {
    env: {
      FWD_PORT: '0',
      FWD_AX_BASE_URL: sim.endpoints.ax.baseUrl,
      FWD_AX_API_KEY: sim.endpoints.ax.apiKey,
      FWD_VD_BASE_URL: sim.endpoints.vd.baseUrl,
      FWD_VD_API_KEY: sim.endpoints.vd.apiKey,
    },
    ready: /forwarder listening on (\d+)/,
  });
  const url = `http://127.0.0.1:${match[1]}`;
  log(`forwarder up on ${url} (pid ${child.pid})`);
  return {
    name: 'forwarder',
    url,
    pid: child.pid,
    apiKey: 'unused-by-the-forwarder',
    served: 0,
    stop: () => lib.stopChild(child),
  };
}

async function resetPostgres(pgUrl, log = () => undefined) {
  const { Client } = require(require.resolve('pg', { paths: [lib.ROOT] }));
  const client = new Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query('DROP SCHEMA IF EXISTS public CASCADE');
    await client.query('CREATE SCHEMA public');
    // The previous run's dirty pages written out now, not by a timed checkpoint during the next
    // measured run: each run pays for its own writes only.
    await client
      .query('CHECKPOINT')
      .catch((error) =>
        log(`  CHECKPOINT not run (${error.message}): the previous run's writes may still be flushed during this one`),
      );
  } finally {
    await client.end();
  }
}

/**
 * The entry point and settings of a variant named as in cost.js: a build directory under bench/.ab/
 * (or `dist`), optionally followed by `:NAME=value` settings joined by `+`.
 */
function variantOf(name) {
  const [build, settings = ''] = name.split(':');
  return {
    name,
    main:
      build === 'dist' ? path.join(lib.ROOT, 'dist/src/main.js') : path.join(__dirname, '.ab', build, 'src/main.js'),
    env: Object.fromEntries(
      settings
        .split('+')
        .filter(Boolean)
        .map((pair) => pair.split('=')),
    ),
  };
}

module.exports = { ADMIN_TOKEN, startGateway, startForwarder, resetPostgres, variantOf };
