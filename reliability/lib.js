'use strict';
/**
 * Shared helpers of the reliability suite: the gateway as a child process (production build,
 * restartable, killable), the database it runs on, an HTTP client that never hangs, the admin
 * API, the invariants every phase checks at its end, and the leak scanner.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const bench = require('../bench/lib');

const ROOT = bench.ROOT;
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const ADMIN_TOKEN = 'reliability-admin-token-0123456789';
const sleep = bench.sleep;

/** Every model of the catalogue (README table); accounts of the suite get all of them. */
const ALL_MODELS = [
  'kl-v1',
  'kl-v1-6',
  'wx2.7-r2v',
  'wx2.7-r2v-2026-06-12',
  'wx2.6-r2v',
  'wx2.6-r2v-flash',
  'vdq3-mix',
  'vdq3-turbo',
  'vdq3',
  'vdq2-pro',
  'vdq2',
  'vdq1',
  'vd2.0',
];

function log(message) {
  process.stderr.write(`[reliability ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

const freePort = bench.freePort;

/** The store the suite runs on: SQLite in a temp dir (default) or DATABASE_URL / REDIS_URL, emptied per phase. */
function storeFromEnv() {
  const databaseUrl = process.env.DATABASE_URL || '';
  const redisUrl = process.env.REDIS_URL || '';
  if (databaseUrl && !databaseUrl.startsWith('postgres'))
    throw new Error('reliability: DATABASE_URL must be postgres://… (unset: SQLite in a temp dir)');
  return { kind: databaseUrl ? 'postgres' : 'sqlite', databaseUrl, redisUrl };
}

/** A fresh database for one phase: a new SQLite file, or the PostgreSQL schema dropped (and Redis flushed). */
async function freshDatabase(store, dir) {
  if (store.kind === 'sqlite') return { DATABASE_URL: `sqlite:${path.join(dir, 'gateway.sqlite')}` };
  const { Client } = require('pg');
  const client = new Client({ connectionString: store.databaseUrl });
  await client.connect();
  await client.query('DROP SCHEMA IF EXISTS public CASCADE');
  await client.query('CREATE SCHEMA public');
  await client.end();
  if (store.redisUrl) {
    const Redis = require('ioredis');
    const redis = new Redis(store.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
    await redis.connect();
    await redis.flushdb();
    await redis.quit();
  }
  return { DATABASE_URL: store.databaseUrl, ...(store.redisUrl ? { REDIS_URL: store.redisUrl } : {}) };
}

/**
 * One gateway process (`node dist/src/main.js`) on a fixed port, its log appended to `logFile`.
 * `kill()` is SIGKILL; `start()` again restarts it on the same database and port.
 */
class Gateway {
  constructor({ name, env, port, logFile }) {
    this.name = name;
    this.env = env;
    this.port = port;
    this.logFile = logFile;
    this.url = `http://127.0.0.1:${port}`;
    this.child = null;
    this.starts = 0;
  }

  async start(timeoutMs = 60_000) {
    const fd = fs.openSync(this.logFile, 'a');
    const env = { ...process.env };
    for (const key of Object.keys(env))
      if (/^(UPSTREAM_|SIM_|DATABASE_URL|REDIS_URL|PORT|CALLBACK_|SYNC_|TASK_|RECONCILE_|DEFAULT_)/.test(key))
        delete env[key];
    const child = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: { ...env, ...this.env, PORT: String(this.port) },
      stdio: ['ignore', fd, fd],
    });
    fs.closeSync(fd);
    this.child = child;
    this.starts++;
    const until = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${this.name} exited at start (code ${child.exitCode}): ${tail(this.logFile)}`);
      const res = await request('GET', `${this.url}/readyz`, { timeoutMs: 1000 });
      if (res.status === 200) return this;
      if (Date.now() > until) throw new Error(`${this.name} not ready within ${timeoutMs} ms: ${tail(this.logFile)}`);
      await sleep(100);
    }
  }

  /** SIGKILL, by the child's own pid; resolves once it is gone. */
  kill() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  stop() {
    return bench.stopChild(this.child, 10_000);
  }
}

function tail(file) {
  try {
    return fs.readFileSync(file, 'utf8').slice(-1500);
  } catch {
    return '';
  }
}

/** The gateway's environment against a running simulator (an external upstream, real HTTP and auth). */
function gatewayEnv(sim, db, extra = {}) {
  return {
    ...db,
    ADMIN_TOKEN,
    // The fuzz sends wrong admin tokens on purpose, from the same address as the audit's calls.
    ADMIN_AUTH_MAX_FAILURES: '1000000',
    DEMO_SEED: 'false',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    NODE_ENV: 'production',
    MIGRATIONS_RUN: 'true',
    ...bench.requireDist('simulator/upstream-env.js').simulatorUpstreamEnv(sim),
    SYNC_INTERVAL_MS: '200',
    SYNC_POLL_BASE_MS: '300',
    SYNC_POLL_MAX_MS: '1500',
    RECONCILE_INTERVAL_MS: '2000',
    CALLBACK_RETRY_BASE_MS: '300',
    ...extra,
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One HTTP request that always settles: `{status, headers, text, json, ms}` or `{status: 0,
 * error}` for no answer (refused, reset, timeout). `body`: an object (sent as JSON), a string or a
 * Buffer (sent as is); `rawPath` is sent byte for byte.
 */
function request(method, url, { headers = {}, body, timeoutMs = 15_000, noAgent = false } = {}) {
  return new Promise((resolve) => {
    const target = new URL(url);
    const payload =
      body === undefined
        ? undefined
        : Buffer.isBuffer(body)
          ? body
          : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const allHeaders = {
      ...(payload && !hasHeader(headers, 'content-type') ? { 'content-type': 'application/json' } : {}),
      ...headers,
    };
    if (payload) allHeaders['content-length'] = payload.length;
    const started = performance.now();
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      resolve({ ms: performance.now() - started, ...result });
    };
    const req = http.request(
      {
        agent: noAgent ? false : agent,
        hostname: target.hostname,
        port: target.port,
        method,
        path: url.slice(url.indexOf('/', 8)),
        headers: allHeaders,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          finish({ status: res.statusCode, headers: res.headers, text, json });
        });
        res.on('aborted', () => finish({ status: 0, error: 'aborted' }));
        res.on('error', (e) => finish({ status: 0, error: e.code || e.message }));
      },
    );
    req.setTimeout(timeoutMs, () => {
      finish({ status: 0, error: 'timeout', timedOut: true });
      req.destroy();
    });
    req.on('error', (e) => finish({ status: 0, error: e.code || e.message }));
    req.end(payload);
  });
}

function hasHeader(headers, name) {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

/** The admin API; throws on anything but 2xx. */
function adminClient(url) {
  const call = async (method, p, body) => {
    const res = await request(method, `${url}${p}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body });
    if (res.status < 200 || res.status >= 300)
      throw new Error(`admin ${method} ${p} -> ${res.status || res.error}: ${(res.text || '').slice(0, 300)}`);
    return res.json;
  };
  return {
    get: (p) => call('GET', p),
    post: (p, b) => call('POST', p, b),
    put: (p, b) => call('PUT', p, b),
    patch: (p, b) => call('PATCH', p, b),
    del: (p) => call('DELETE', p),
    /** An account with money, every model, and a key. */
    async account(
      name,
      { balance = 1_000_000_000_000, rpm = 1_000_000, maxConcurrent = 100_000, models = ALL_MODELS } = {},
    ) {
      const account = await call('POST', '/admin/v1/accounts', {
        name,
        balance,
        rate_limit_rpm: rpm,
        max_concurrent_tasks: maxConcurrent,
      });
      await call('PUT', `/admin/v1/accounts/${account.id}/models`, { models: models.map((model) => ({ model })) });
      const key = await call('POST', `/admin/v1/accounts/${account.id}/keys`, { name });
      return { id: account.id, key: key.key, keyId: key.id, name };
    },
  };
}

/** Every usage row of an account (paged). */
async function usageRows(admin, accountId) {
  const rows = [];
  for (let page = 1; ; page++) {
    const res = await admin.get(`/admin/v1/usage?account_id=${accountId}&page=${page}&page_size=500`);
    rows.push(...res.items);
    if (res.items.length < 500 || rows.length >= res.total) return rows;
  }
}

/**
 * The end-of-phase audit: ledger proof, open holds, in-flight counters, and charges per task.
 * `clientIds`: every task ID some client received (a charged task outside it is one no client holds).
 */
async function audit(admin, accountIds, clientIds = null) {
  const verify = await admin.get('/admin/v1/ledger/verify');
  let held = 0;
  let inFlight = 0;
  let doubleCharges = 0;
  let orphanCharges = 0;
  const accounts = {};
  for (const id of accountIds) {
    const account = await admin.get(`/admin/v1/accounts/${id}`);
    held += Number(account.held) || 0;
    inFlight += Number(account.in_flight_tasks) || 0;
    const rows = (await usageRows(admin, id)).filter((r) => r.task_id);
    const perTask = new Map();
    for (const row of rows) {
      const k = `${row.task_id}|${row.action}`;
      perTask.set(k, (perTask.get(k) || 0) + 1);
    }
    for (const count of perTask.values()) if (count > 1) doubleCharges += count - 1;
    if (clientIds) for (const row of rows) if (!clientIds.has(row.task_id)) orphanCharges++;
    accounts[id] = {
      balance: Number(account.balance),
      held: Number(account.held),
      inFlight: Number(account.in_flight_tasks),
      charged: rows.reduce((s, r) => s + Number(r.amount || 0), 0),
      rows: rows.length,
    };
  }
  return {
    ledgerOk: verify.ok === true,
    ledgerMismatches: verify.ok ? 0 : Math.max(1, (verify.mismatches || []).length),
    held,
    inFlight,
    doubleCharges,
    orphanCharges,
    accounts,
  };
}

/** Polls `check` until it returns truthy or `timeoutMs` passes; returns the last value. */
async function waitFor(check, timeoutMs, everyMs = 500) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value || Date.now() > until) return value;
    await sleep(everyMs);
  }
}

/** Runs `fn(item)` over `items` with at most `limit` at once. */
async function pool(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  });
  await Promise.all(workers);
  return results;
}

/** A seeded PRNG (mulberry32), so a run can be repeated with `--seed`. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

module.exports = {
  ROOT,
  MAIN,
  ADMIN_TOKEN,
  ALL_MODELS,
  sleep,
  log,
  freePort,
  storeFromEnv,
  freshDatabase,
  Gateway,
  gatewayEnv,
  request,
  adminClient,
  usageRows,
  audit,
  waitFor,
  pool,
  rng,
  tempDir: bench.tempDir,
  requireDist: bench.requireDist,
};
