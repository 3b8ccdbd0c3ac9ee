'use strict';
/**
 * Gateway CPU time per request, for before/after comparisons on a busy machine (see README,
 * "Before/after"). Req/s moves with whatever else runs on the machine; the CPU time the gateway
 * process spends per answer moves far less. Each variant is a build (`dist/` or one made by
 * build-variant.js); variants run in turn, `--rounds` times, each time in a fresh gateway process
 * against the in-process simulator (1 h tasks: nothing is polled), on SQLite or `--pg URL`.
 *
 *   node bench/cost.js --variants base,after [--rounds 3] [--requests 3000] [--connections 8] [--only b-create,b-query]
 *     [--node-args "--cpu-prof --cpu-prof-dir=DIR"]   (extra node flags for the gateway)
 *
 *   node bench/cost.js --split --pg URL [--only b-create,b-query]   one instance against two on the same database
 *
 * A variant name is a directory under bench/.ab/ (or `dist` for the current build), optionally
 * followed by `:NAME=value` settings for its gateway, joined by `+` (e.g. `dist:FAST_PATHS=false`
 * measures the build with its hand-written speed pieces off). Per scenario:
 * a warm-up of `--warmup` requests, then `--requests` requests at `--connections` concurrent
 * connections; the gateway's idle CPU (measured for 5 s before, `lib.IDLE_SAMPLE_MS`) is subtracted.
 */
const http = require('node:http');
const lib = require('./lib');
const gatewayProcess = require('./gateway-process');

const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : fallback;
};
const VARIANTS = String(opt('variants', 'dist')).split(',');
const ROUNDS = Number(opt('rounds', 3));
const REQUESTS = Number(opt('requests', 3000));
const WARMUP = Number(opt('warmup', 1000));
const CONNECTIONS = Number(opt('connections', 8));
const PG_URL = opt('pg', null);
const ONLY = opt('only', null);
/** Extra node flags for the gateway process, e.g. `--node-args "--cpu-prof --cpu-prof-dir=DIR"` to profile a variant. */
const NODE_ARGS = String(opt('node-args', '')).split(/\s+/).filter(Boolean);
const B_PATH = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const C_PATH = '/vd/ent/v2/reference2video';
const B_BODY = JSON.stringify({
  model: 'wx2.7-r2v',
  input: {
    prompt: 'Image 1 walks on the beach at sunset',
    media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }],
  },
  parameters: { resolution: '720P', duration: 5 },
});
const C_BODY = JSON.stringify({
  model: 'vdq3',
  subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
  prompt: '@cat plays in the garden',
});
const ALL_SCENARIOS = [
  { id: 'b-create', method: 'POST', path: () => B_PATH, body: B_BODY, keep: 'b' },
  { id: 'b-query', method: 'GET', path: (ids) => `/ax/api/v1/tasks/${ids.b[ids.n++ % ids.b.length]}` },
  { id: 'c-create', method: 'POST', path: () => C_PATH, body: C_BODY, keep: 'c' },
  { id: 'c-query', method: 'GET', path: (ids) => `/vd/ent/v2/tasks/${ids.c[ids.n++ % ids.c.length]}/creations` },
  { id: 'healthz', method: 'GET', path: () => '/healthz' },
];
const SCENARIOS = ALL_SCENARIOS.filter((s) => !ONLY || ONLY.split(',').includes(s.id));
/**
 * Warm-up runs every scenario, measured or not: a query scenario needs the tasks its create made (else it measures
 * 404s).
 */
const WARMUP_SCENARIOS = ALL_SCENARIOS.filter((s) => s.id !== 'healthz' || SCENARIOS.includes(s));

/** A gateway of `variant` (see `variantOf`), with its API key as `key`; `reset` false joins the database as it is. */
async function startGateway(sim, variant, { reset = true } = {}) {
  const { main, env } = gatewayProcess.variantOf(variant);
  const gw = await gatewayProcess.startGateway(sim, {
    tag: 'cost',
    main,
    pgUrl: PG_URL,
    redisUrl: PG_URL ? String(opt('redis', 'redis://127.0.0.1:6379/3')) : null,
    nodeArgs: NODE_ARGS,
    resetDatabase: reset,
    env,
  });
  return { ...gw, key: gw.apiKey };
}

/** `count` requests, `CONNECTIONS` at a time; keeps created IDs in ids[keep]. */
function drive(gw, scenario, count, ids, connections = CONNECTIONS) {
  const target = new URL(gw.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let sent = 0;
  let done = 0;
  let bad = 0;
  return new Promise((resolve) => {
    const one = () => {
      if (sent >= count) return;
      sent++;
      const headers = { authorization: `Bearer ${gw.key}` };
      if (scenario.body)
        Object.assign(headers, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(scenario.body),
        });
      const req = http.request(
        {
          agent,
          hostname: target.hostname,
          port: target.port,
          method: scenario.method,
          path: scenario.path(ids),
          headers,
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode !== 200) bad++;
            else if (scenario.keep && ids[scenario.keep].length < 500) {
              const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
              ids[scenario.keep].push(scenario.keep === 'b' ? body.output.task_id : body.task_id);
            }
            if (++done === count) {
              agent.destroy();
              resolve(bad);
            } else one();
          });
        },
      );
      req.on('error', () => {
        bad++;
        if (++done === count) resolve(bad);
        else one();
      });
      req.end(scenario.body);
    };
    for (let i = 0; i < connections; i++) one();
  });
}

/**
 * `--split`: the capacity model's per-instance figure against a real split. The same scenario at
 * `--connections` against one instance, then at half that against each of two instances on one
 * database at the same time: aggregate req/s and each instance's CPU per request.
 */
async function split(sim) {
  const rows = [];
  for (const s of SCENARIOS.filter((x) => x.id !== 'healthz')) {
    for (const count of [1, 2]) {
      const gws = [];
      for (let i = 0; i < count; i++) gws.push(await startGateway(sim, VARIANTS[0], { reset: i === 0 }));
      try {
        const ids = gws.map(() => ({ b: [], c: [], n: 0 }));
        for (const [i, gw] of gws.entries())
          for (const w of WARMUP_SCENARIOS.filter((x) => x.id !== 'healthz'))
            await drive(gw, w, WARMUP / count, ids[i]);
        const cpu0 = gws.map((gw) => lib.cpuMs(gw.pid));
        const t0 = Date.now();
        const perInstance = Math.round(REQUESTS / count);
        await Promise.all(gws.map((gw, i) => drive(gw, s, perInstance, ids[i], CONNECTIONS / count)));
        const elapsed = Date.now() - t0;
        const cpu = gws.map((gw, i) => (lib.cpuMs(gw.pid) - cpu0[i]) / perInstance);
        rows.push([
          s.id,
          String(count),
          String(Math.round((perInstance * count * 1000) / elapsed)),
          cpu.map((x) => x.toFixed(3)).join(' / '),
        ]);
        process.stderr.write(
          `[cost] split ${s.id} x${count}: ${rows[rows.length - 1].slice(2).join(' req/s, CPU ms/request ')}\n`,
        );
      } finally {
        for (const gw of gws) await gw.stop();
      }
    }
  }
  process.stdout.write(
    `\n${PG_URL ? 'PostgreSQL' : 'SQLite'}, ${REQUESTS} requests at ${CONNECTIONS} connections in all\n${lib.markdownTable(['scenario', 'instances', 'aggregate req/s', 'CPU ms / request per instance'], rows)}\n`,
  );
}

async function main() {
  const { startSimulator } = lib.requireDist('simulator/simulator.js');
  const sim = await startSimulator({ taskMs: 3_600_000 });
  const trim = setInterval(() => sim.reset(), 1000);
  trim.unref();
  const results = {};
  if (argv.includes('--split')) {
    try {
      await split(sim);
    } finally {
      clearInterval(trim);
      await sim.close();
    }
    return;
  }
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const variant of lib.inTurn(VARIANTS, round)) {
        const gw = await startGateway(sim, variant);
        try {
          const ids = { b: [], c: [], n: 0 };
          // Every scenario warmed up first, so that the queries have tasks to read.
          for (const s of WARMUP_SCENARIOS) await drive(gw, s, WARMUP, ids);
          const idlePerMs = await lib.idleCpuPerMs(gw.pid);
          for (const s of SCENARIOS) {
            const cpu0 = lib.cpuMs(gw.pid);
            const t0 = Date.now();
            const bad = await drive(gw, s, REQUESTS, ids);
            const elapsed = Date.now() - t0;
            const perRequest = (lib.cpuMs(gw.pid) - cpu0 - idlePerMs * elapsed) / REQUESTS;
            ((results[variant] ??= {})[s.id] ??= []).push(lib.round(perRequest, 4));
            process.stderr.write(
              `[cost] round ${round} ${variant} ${s.id}: ${perRequest.toFixed(3)} ms CPU/request, ${Math.round((REQUESTS * 1000) / elapsed)} req/s${bad ? `, ${bad} not 200` : ''}\n`,
            );
          }
        } finally {
          await gw.stop();
        }
      }
    }
  } finally {
    clearInterval(trim);
    await sim.close();
  }
  const { median } = lib;
  const header = ['gateway CPU ms / request (median of rounds)', ...VARIANTS];
  // The paired figure: each round ran the two variants back to back, so their ratio within a round
  // leaves out what the machine did between rounds.
  if (VARIANTS.length === 2)
    header.push(`${VARIANTS[1]} vs ${VARIANTS[0]} (medians)`, `${VARIANTS[1]} vs ${VARIANTS[0]} (median of rounds)`);
  const rows = SCENARIOS.map((s) => {
    const values = VARIANTS.map((v) => median(results[v][s.id]));
    const row = [
      s.id,
      ...values.map((v, i) => `${v.toFixed(3)} (${results[VARIANTS[i]][s.id].map((x) => x.toFixed(2)).join(', ')})`),
    ];
    if (VARIANTS.length === 2) {
      const [before, after] = VARIANTS.map((v) => results[v][s.id]);
      const paired = median(after.map((x, i) => x / before[i] - 1));
      row.push(`${(((values[1] - values[0]) / values[0]) * 100).toFixed(0)}%`, `${(paired * 100).toFixed(0)}%`);
    }
    return row;
  });
  process.stdout.write(
    `\n${PG_URL ? 'PostgreSQL' : 'SQLite'}, ${REQUESTS} requests at ${CONNECTIONS} connections per scenario, ${ROUNDS} rounds\n${lib.markdownTable(header, rows)}\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
