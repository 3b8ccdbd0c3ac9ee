'use strict';
/**
 * How long `/healthz` waits while large JSON bodies arrive (`node bench/body-flood.js`; see
 * docs/benchmarks.md, "Large bodies and the event loop").
 *
 * Starts the gateway (the production build, or `--main FILE`: a variant from bench/build-variant.js
 * or a copy of an earlier dist/) on a fresh SQLite file (or `--pg URL` with `--redis URL`), then
 * for each kind of route sends `--repeat` bodies one after another: a 38 MB JSON object of
 * 3,000,000 members and a 6 MB array of 3,000,000 elements. Meanwhile a prober asks `/healthz`
 * every 20 ms on its own connection and keeps the longest wait (from send to the end of the
 * answer). Kinds: a client route with a wrong API key, an admin route with a wrong admin token,
 * the upstream callback route with an unknown token, and a client media route with a valid key.
 *
 * Options: --main FILE (dist/src/main.js), --repeat N (2), --pg URL, --redis URL, --out FILE (JSON).
 * Loopback only; every loop is bounded by count.
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const lib = require('./lib');

const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  if (!arg.startsWith('--')) continue;
  const next = process.argv[i + 1];
  if (next === undefined || next.startsWith('--')) args[arg.slice(2)] = true;
  else args[arg.slice(2)] = process.argv[++i];
}
const MAIN = path.resolve(lib.ROOT, String(args.main ?? 'dist/src/main.js'));
const REPEAT = Number(args.repeat ?? 2);
const PG_URL = args.pg ? String(args.pg) : null;
const REDIS_URL = args.redis ? String(args.redis) : PG_URL ? 'redis://127.0.0.1:6379/3' : null;
const ADMIN_TOKEN = 'flood-admin-token-0123456789abcdef';
const MEMBERS = 3_000_000;
const PROBE_EVERY_MS = 20;

async function startGateway() {
  const dir = lib.tempDir('gw-flood-');
  const port = await lib.freePort();
  const logFile = path.join(dir, 'gateway.log');
  const env = {
    PORT: String(port),
    DATABASE_URL: PG_URL ?? `sqlite:${path.join(dir, 'gateway.sqlite')}`,
    ...(REDIS_URL ? { REDIS_URL } : {}),
    RESULT_STORE_DIR: path.join(dir, 'results'),
    LOG_LEVEL: 'warn',
    ADMIN_TOKEN,
    DEMO_SEED: 'false',
    NODE_ENV: 'production',
  };
  for (const key of Object.keys(process.env))
    if (/^(UPSTREAM_|SIM_|DATABASE_URL|REDIS_URL)/.test(key) && !(key in env)) delete process.env[key];
  const { child } = await lib.startChild('gateway', [...lib.START_FLAGS, MAIN], {
    env,
    // The start banner names the port once the server listens.
    ready: new RegExp(`Gateway listening on .*:${port}`),
    onLine: (line) => fs.appendFileSync(logFile, `${line}\n`),
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await lib.sleep(100);
  }
  return { child, url };
}

/**
 * POSTs `body` and resolves with the answer's status once the exchange is over; a gateway that
 * answers and closes before the whole body is sent still counts by its answer (the socket error
 * is named only when no answer came).
 */
function post(url, route, headers, body) {
  const target = new URL(url);
  return new Promise((resolve) => {
    const started = performance.now();
    let status = null;
    const req = http.request(
      {
        hostname: target.hostname,
        port: target.port,
        method: 'POST',
        path: route,
        agent: false,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        status = res.statusCode;
        res.resume();
        res.on('end', () => resolve({ status, ms: performance.now() - started }));
      },
    );
    req.on('error', (error) =>
      setTimeout(() => resolve({ status: status ?? error.code, ms: performance.now() - started }), 100),
    );
    req.end(body);
  });
}

/** Asks `/healthz` every PROBE_EVERY_MS on its own keep-alive connection until stopped; keeps each wait. */
function probe(url) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const waits = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      await new Promise((resolve) => {
        http
          .get(`${url}/healthz`, { agent }, (res) => {
            res.resume();
            res.on('end', resolve);
          })
          .on('error', resolve);
      });
      waits.push(performance.now() - started);
      await lib.sleep(PROBE_EVERY_MS);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      agent.destroy();
      return waits;
    },
  };
}

function bodies() {
  const parts = new Array(MEMBERS);
  for (let i = 0; i < MEMBERS; i++) parts[i] = `"k${i}":1`;
  const object = Buffer.from(`{${parts.join(',')}}`);
  const array = Buffer.from(`[${new Array(MEMBERS).fill('0').join(',')}]`);
  return { object, array };
}

async function main() {
  const { object, array } = bodies();
  const gw = await startGateway();
  try {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const account = await lib.httpJson('POST', `${gw.url}/admin/v1/accounts`, {
      headers: admin,
      body: { name: 'flood', balance: 1_000_000 },
    });
    await lib.httpJson('PUT', `${gw.url}/admin/v1/accounts/${account.id}/models`, {
      headers: admin,
      body: { models: [{ model: 'vdq3' }] },
    });
    const { key } = await lib.httpJson('POST', `${gw.url}/admin/v1/accounts/${account.id}/keys`, {
      headers: admin,
      body: { name: 'flood' },
    });
    const kinds = [
      ['client route, wrong API key', '/vd/ent/v2/reference2video', { authorization: 'Bearer sk-wrong-key' }],
      ['admin route, wrong admin token', '/admin/v1/accounts', { authorization: 'Bearer wrong-admin-token' }],
      ['upstream callback, unknown token', '/callbacks/upstream/0123456789abcdef0123', {}],
      ['client media route, valid key', '/vd/ent/v2/reference2video', { authorization: `Bearer ${key}` }],
    ];
    const rows = [];
    const results = [];
    for (const [kind, route, headers] of kinds) {
      for (const [shape, body] of [
        [`object, ${(object.length / 1e6).toFixed(0)} MB`, object],
        [`array, ${(array.length / 1e6).toFixed(0)} MB`, array],
      ]) {
        await lib.sleep(500);
        const prober = probe(gw.url);
        await lib.sleep(200);
        const answers = [];
        for (let i = 0; i < REPEAT; i++) answers.push(await post(gw.url, route, headers, body));
        await lib.sleep(200);
        const waits = await prober.stop();
        const worst = Math.max(...waits);
        results.push({ kind, shape, route, answers, healthzMaxMs: lib.round(worst, 1), probes: waits.length });
        rows.push([
          kind,
          shape,
          answers.map((a) => a.status).join(', '),
          answers.map((a) => lib.round(a.ms / 1000, 2)).join(', '),
          lib.round(worst, 1),
        ]);
        process.stdout.write(`${kind} (${shape}): /healthz waited up to ${lib.round(worst, 1)} ms\n`);
      }
    }
    process.stdout.write(
      `\n${lib.markdownTable(['route', 'body', 'answers', 'answer s', '/healthz longest wait ms'], rows)}\n`,
    );
    const longest = Math.max(...results.map((r) => r.healthzMaxMs));
    process.stdout.write(`\nlongest /healthz wait over the run: ${longest} ms (${path.relative(lib.ROOT, MAIN)})\n`);
    if (args.out)
      fs.writeFileSync(
        path.resolve(String(args.out)),
        JSON.stringify({ main: path.relative(lib.ROOT, MAIN), machine: lib.machine(), longest, results }, null, 2),
      );
  } finally {
    await lib.stopChild(gw.child);
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
