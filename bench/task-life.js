'use strict';
/**
 * What a video task's whole life costs in the gateway (`npm run bench:task-life`; see README).
 *
 * Part 1, `life`: paced creates (ax and vd in turn) at `--rate` for `--seconds`, tasks of `--task-ms`
 * at the simulator, each task queried every `--query-ms` until it ends, vd tasks with a client
 * callback to a receiver in this process; the gateway at its default polls keeps the result files
 * (`RESULT_STORE=fs`). Per completed task: gateway CPU (idle subtracted), the bare forwarder's CPU
 * for the same client exchanges, and the counts that make the life (client queries, upstream polls,
 * result downloads, callbacks, SQL statements from a second, counting pass); completion lag from the
 * upstream's end to the callback and to the first query that shows the end. Every task must end,
 * be settled, have its files kept and its callback delivered, else the run says "holds: no".
 *
 * Part 2, `keep`: create throughput (autocannon, ax creates, `--connections` for `--duration` s after
 * `--warmup` s) against a simulator whose tasks end at once (`--keep-task-ms`), so that the sync and
 * keep workers poll, settle and download during the run: the gateway with `RESULT_STORE=fs` and
 * `off`, the forwarder, and with `--portkey` the Portkey AI gateway (`@portkey-ai/gateway`, installed
 * on demand into bench/.portkey/) in pass-through mode; rounds alternated, median per target.
 *
 *   node bench/task-life.js [--only life|keep] [--rate 50] [--seconds 30] [--task-ms 3000] [--query-ms 1000]
 *     [--rounds N (life 1, keep 3)] [--pg URL --redis URL] [--fast-paths false] [--variants dist,NAME]
 *     [--portkey [--portkey-version 1.9.8]] [--connections 32] [--duration 10] [--warmup 3] [--keep-task-ms 50] [--out bench/task-life.json]
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { execFileSync, spawn } = require('node:child_process');
const autocannon = require('autocannon');
const lib = require('./lib');
const gatewayProcess = require('./gateway-process');

const { fmt } = lib;

const args = lib.parseArgs(process.argv.slice(2));
const ONLY = args.only ? String(args.only) : null;
if (ONLY && !['life', 'keep'].includes(ONLY)) throw new Error('--only: life or keep');
const RATE = Number(args.rate ?? 50);
const SECONDS = Number(args.seconds ?? 30);
const TASK_MS = Number(args['task-ms'] ?? 3000);
const QUERY_MS = Number(args['query-ms'] ?? 1000);
const LIFE_ROUNDS = Math.max(1, Number(args.rounds ?? 1));
const KEEP_ROUNDS = Math.max(1, Number(args.rounds ?? 3));
const CONNECTIONS = Number(args.connections ?? 32);
const DURATION_S = Number(args.duration ?? 10);
const WARMUP_S = Number(args.warmup ?? 3);
const KEEP_TASK_MS = Number(args['keep-task-ms'] ?? 50);
const PG_URL = args.pg ? String(args.pg) : null;
const REDIS_URL = PG_URL ? String(args.redis ?? 'redis://127.0.0.1:6379/3') : null;
const FAST_PATHS_OFF = String(args['fast-paths'] ?? 'true') === 'false';
const VARIANTS = String(args.variants ?? 'dist')
  .split(',')
  .filter(Boolean)
  .map(gatewayProcess.variantOf);
const PORTKEY = args.portkey === true;
/** Extra node flags for the gateway, e.g. `--node-args="--cpu-prof --cpu-prof-dir=DIR"` to profile it. */
const NODE_ARGS = String(args['node-args'] ?? '')
  .split(/\s+/)
  .filter(Boolean);
/**
 * Portkey's release measured (`--portkey-version` for another). 1.15.2, the newest, answers 500 to this pass-through: it
 * appends its headers to the upstream's immutable response headers.
 */
const PORTKEY_VERSION = String(args['portkey-version'] ?? '1.9.8');
const PORTKEY_DIR = path.join(__dirname, '.portkey');
const OUT = path.resolve(String(args.out ?? path.join(__dirname, 'task-life.json')));
const { ADMIN_TOKEN } = gatewayProcess;
/** After the last create: how long every task has to end, be called back and have its files kept. */
const TAIL_LIMIT_MS = 60_000;

const B_CREATE_PATH = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const C_CREATE_PATH = '/vd/ent/v2/reference2video';
const B_PROMPT = 'Image 1 walks on the beach at sunset';
const C_PROMPT = '@cat plays in the garden';
/** The mix's bodies (bench/run.js); the prompt carries the task's number, so the simulator's side can be matched. */
const bBody = (n) => ({
  model: 'wx2.7-r2v',
  input: { prompt: `${B_PROMPT} #life-${n}`, media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
  parameters: { resolution: '720P', duration: 5 },
});
const cBody = (n, callbackUrl) => ({
  model: 'vdq3',
  subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
  prompt: `${C_PROMPT} #life-${n}`,
  callback_url: callbackUrl,
});
const B_TERMINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELED', 'UNKNOWN']);
const C_TERMINAL = new Set(['success', 'failed']);

async function main() {
  const started = Date.now();
  const results = {
    when: new Date().toISOString(),
    machine: lib.machine(),
    settings: {
      database: PG_URL
        ? `postgres (${PG_URL.replace(/:[^:@/]*@/, ':***@')}), redis ${REDIS_URL}`
        : 'sqlite (temp file)',
      fastPaths: !FAST_PATHS_OFF,
      variants: VARIANTS.map((v) => v.name),
      life: { rate: RATE, seconds: SECONDS, taskMs: TASK_MS, queryMs: QUERY_MS, rounds: LIFE_ROUNDS },
      keep: {
        connections: CONNECTIONS,
        durationSeconds: DURATION_S,
        warmupSeconds: WARMUP_S,
        taskMs: KEEP_TASK_MS,
        rounds: KEEP_ROUNDS,
        portkey: PORTKEY ? PORTKEY_VERSION : false,
      },
    },
  };
  if (ONLY !== 'keep') results.life = await lifePart();
  if (ONLY !== 'life') results.keep = await keepPart();
  results.elapsedSeconds = Math.round((Date.now() - started) / 1000);
  fs.writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(
    `\n${report(results)}\n\nwritten: ${path.relative(process.cwd(), OUT)} (${results.elapsedSeconds} s)\n`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The simulator's side: what reaches it, counted in this process.

/**
 * Counts what reaches the simulator (creates, polls, result downloads) and notes when each tagged
 * create arrived: the simulator records every request in `sim.requests` just before it handles it,
 * in the same tick in which a create starts its task's clock, so that moment plus the task time is
 * the task's end at the upstream. Replaces the record's `push`, so the array never grows.
 */
function instrument(sim) {
  const { SIM_ASSETS } = lib.requireDist('simulator/assets.js');
  const state = {
    creates: 0,
    polls: 0,
    downloads: 0,
    downloadBytes: 0,
    other: 0,
    lastActivity: 0,
    createdAt: new Map(),
  };
  sim.requests.push = (entry) => {
    const now = Date.now();
    const pathname = entry.path.split('?')[0];
    const asset = SIM_ASSETS.get(pathname);
    if (asset && entry.method === 'GET') {
      state.downloads++;
      state.downloadBytes += asset.bytes.length;
    } else if (entry.method === 'POST' && /(video-synthesis|reference2video)$/.test(pathname)) {
      state.creates++;
      const body = entry.body || {};
      const prompt = entry.family === 'ax' ? body.input && body.input.prompt : body.prompt;
      const tag = /#life-(\d+)$/.exec(String(prompt || ''));
      if (tag) state.createdAt.set(Number(tag[1]), now);
    } else if (entry.method === 'GET') state.polls++;
    else state.other++;
    if (!(entry.method === 'POST' && /(video-synthesis|reference2video)$/.test(pathname))) state.lastActivity = now;
    return 0;
  };
  return {
    state,
    counts: () => ({
      creates: state.creates,
      polls: state.polls,
      downloads: state.downloads,
      downloadBytes: state.downloadBytes,
      other: state.other,
    }),
    /** A fresh pass: counters at zero, the tag map emptied. */
    reset() {
      Object.assign(state, { creates: 0, polls: 0, downloads: 0, downloadBytes: 0, other: 0, lastActivity: 0 });
      state.createdAt.clear();
    },
    assetSizes: () => Object.fromEntries([...SIM_ASSETS].map(([p, a]) => [p, a.bytes.length])),
  };
}

/** The client's callback receiver: each POST to /cb/<n> noted with its arrival time (the first) and counted. */
async function startReceiver() {
  const arrivals = new Map();
  let deliveries = 0;
  const server = http.createServer((req, res) => {
    const now = Date.now();
    req.resume();
    req.on('end', () => {
      const m = /^\/cb\/(\d+)$/.exec(req.url || '');
      if (m && req.method === 'POST') {
        deliveries++;
        if (!arrivals.has(Number(m[1]))) arrivals.set(Number(m[1]), now);
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    url: (n) => `${base}/cb/${n}`,
    arrivals,
    deliveries: () => deliveries,
    reset() {
      arrivals.clear();
      deliveries = 0;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Part 1: the life of a task.

async function lifePart() {
  const { startSimulator } = lib.requireDist('simulator/simulator.js');
  const sim = await startSimulator({ taskMs: TASK_MS });
  const upstream = instrument(sim);
  const receiver = await startReceiver();
  const out = { resultFiles: upstream.assetSizes(), rounds: [], counting: {} };
  try {
    for (let round = 1; round <= LIFE_ROUNDS; round++) {
      const row = { round };
      const forwarder = await gatewayProcess.startForwarder(sim, { log });
      try {
        row.forwarder = await lifePass(forwarder, sim, upstream, receiver, { label: `round ${round} forwarder` });
      } finally {
        await forwarder.stop();
      }
      for (const variant of lib.inTurn(VARIANTS, round)) {
        const gateway = await startLifeGateway(sim, variant, 'life');
        try {
          row[variant.name] = await lifePass(gateway, sim, upstream, receiver, {
            label: `round ${round} gateway ${variant.name}`,
            checks: true,
          });
        } finally {
          await gateway.stop();
        }
      }
      out.rounds.push(row);
    }
    // The counting pass: the same run once more per variant, its gateway counting its SQL statements (its CPU is not
    // reported: the counting costs some).
    for (const variant of VARIANTS) {
      const file = path.join(lib.tempDir('gw-sql-count-'), 'counts.jsonl');
      const delayFile = path.join(path.dirname(file), 'loop-delay.jsonl');
      const gateway = await startLifeGateway(sim, variant, 'life-sql', {
        extraArgs: [
          ...['--require', path.join(__dirname, 'loop-delay-preload.js')],
          ...['--require', path.join(__dirname, 'sql-count-preload.js')],
        ],
        env: { BENCH_SQL_COUNT_FILE: file, BENCH_LOOP_DELAY_FILE: delayFile },
      });
      let pass;
      try {
        pass = await lifePass(gateway, sim, upstream, receiver, {
          label: `counting pass gateway ${variant.name}`,
          checks: true,
          sqlMarks: file,
        });
      } finally {
        await gateway.stop();
      }
      const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map(JSON.parse);
      // The third mark ends the run, so its line holds the loop's delays during the run.
      const { p50, p99, p999, max } = fs.readFileSync(delayFile, 'utf8').trim().split('\n').map(JSON.parse)[2];
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
      // Marks: before the idle sample, after it (the run starts), at the end of the run.
      const [idle0, run0, run1] = lines;
      const idlePerMs = (run0.queries - idle0.queries) / (run0.at - idle0.at);
      const runStatements = run1.queries - run0.queries;
      const idleStatements = idlePerMs * (run1.at - run0.at);
      out.counting[variant.name] = {
        holds: pass.holds,
        tasks: pass.completed,
        statements: runStatements,
        idleStatementsPerSecond: lib.round(idlePerMs * 1000, 1),
        statementsPerTask: lib.round(runStatements / pass.completed, 2),
        statementsPerTaskIdleSubtracted: lib.round((runStatements - idleStatements) / pass.completed, 2),
        ...(PG_URL ? { roundTripsPerTask: lib.round((run1.trips - run0.trips) / pass.completed, 2) } : {}),
        loopDelayMs: { p50, p99, p999, max },
      };
      log(
        `  SQL statements per task (${variant.name}): ${out.counting[variant.name].statementsPerTask} (idle ${out.counting[variant.name].idleStatementsPerSecond}/s subtracted: ${out.counting[variant.name].statementsPerTaskIdleSubtracted})`,
      );
      log(`  event-loop delay during the run (${variant.name}), ms: p50 ${p50}, p99 ${p99}, p99.9 ${p999}, max ${max}`);
    }
  } finally {
    await receiver.close();
    await sim.close();
  }
  out.summary = lifeSummary(out);
  return out;
}

function startLifeGateway(sim, variant, tag, { extraArgs = [], env = {} } = {}) {
  return gatewayProcess.startGateway(sim, {
    tag,
    main: variant.main,
    pgUrl: PG_URL,
    redisUrl: REDIS_URL,
    extraArgs,
    nodeArgs: extraArgs.length ? [] : NODE_ARGS,
    defaultPolls: true,
    env: {
      RESULT_STORE: 'fs',
      // The callback receiver is this process, on loopback.
      CALLBACK_ALLOW_PRIVATE: 'true',
      ...(FAST_PATHS_OFF ? { FAST_PATHS: 'false' } : {}),
      ...variant.env,
      ...env,
    },
    keepLogs: args['keep-logs'] === true,
    log,
  });
}

/** The child's CPU per ms while quiet (no load, `lib.IDLE_SAMPLE_MS`): what the run's window subtracts. */
async function idleCpuPerMs(pid, sqlMarks, childProcess) {
  if (sqlMarks) await sqlMark(childProcess, sqlMarks, 1);
  const perMs = await lib.idleCpuPerMs(pid);
  if (sqlMarks) await sqlMark(childProcess, sqlMarks, 2);
  return perMs;
}

/** Asks the counting preload for its totals now (SIGWINCH) and waits for its line. */
async function sqlMark(childProcess, file, expectLines) {
  childProcess.kill('SIGWINCH');
  for (let i = 0; i < 100; i++) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (text.trim().split('\n').filter(Boolean).length >= expectLines) return;
    await lib.sleep(20);
  }
  throw new Error('the SQL counting preload did not answer SIGWINCH');
}

/**
 * One pass against one target (the forwarder or a gateway): RATE creates/s for SECONDS, each task
 * queried every QUERY_MS until it ends; the CPU window runs until every task ended, was called back
 * and the simulator saw no poll or download for a second and a half.
 */
async function lifePass(target, sim, upstream, receiver, { label, checks = false, sqlMarks = null }) {
  upstream.reset();
  receiver.reset();
  const total = Math.round(RATE * SECONDS);
  log(
    `${label}: ${RATE} creates/s for ${SECONDS} s (ax and vd in turn, ${TASK_MS} ms tasks), each queried every ${QUERY_MS} ms until it ends`,
  );
  const idlePerMs = await idleCpuPerMs(target.pid, sqlMarks, target.child);
  const tgt = new URL(target.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const headers = { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' };
  const tasks = []; // n -> { family, id, createdStatus, queries, endSeenAt }
  let errors = 0;
  let created = 0;
  let ended = 0;
  let queries = 0;
  const statuses = {};
  const call = (method, pathName, body, onBody) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        agent,
        hostname: tgt.hostname,
        port: tgt.port,
        method,
        path: pathName,
        headers: payload ? { ...headers, 'content-length': Buffer.byteLength(payload) } : headers,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1;
          if (res.statusCode !== 200) errors++;
          onBody(res.statusCode, Buffer.concat(chunks).toString('utf8'));
        });
      },
    );
    req.on('error', () => errors++);
    req.end(payload);
  };
  const query = (task, at) => {
    setTimeout(
      () => {
        queries++;
        task.queries++;
        const pathName = task.family === 'ax' ? `/ax/api/v1/tasks/${task.id}` : `/vd/ent/v2/tasks/${task.id}/creations`;
        call('GET', pathName, undefined, (status, text) => {
          if (status !== 200) return query(task, at + QUERY_MS);
          const body = JSON.parse(text);
          const done =
            task.family === 'ax' ? B_TERMINAL.has(body.output && body.output.task_status) : C_TERMINAL.has(body.state);
          if (!done) return query(task, at + QUERY_MS);
          task.endSeenAt = Date.now();
          task.succeeded = task.family === 'ax' ? body.output.task_status === 'SUCCEEDED' : body.state === 'success';
          ended++;
        });
      },
      Math.max(0, at - performance.now()),
    );
  };
  const create = (n) => {
    const family = n % 2 === 0 ? 'ax' : 'vd';
    const task = { n, family, id: null, queries: 0, endSeenAt: null };
    tasks[n] = task;
    const body = family === 'ax' ? bBody(n) : cBody(n, receiver.url(n));
    call('POST', family === 'ax' ? B_CREATE_PATH : C_CREATE_PATH, body, (status, text) => {
      if (status !== 200) return;
      const answer = JSON.parse(text);
      task.id = family === 'ax' ? answer.output.task_id : answer.task_id;
      created++;
      query(task, performance.now() + QUERY_MS);
    });
  };

  const cpu0 = lib.cpuMs(target.pid);
  const t0 = Date.now();
  const start = performance.now() + 20;
  await new Promise((resolve) => {
    let sent = 0;
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + (sent * 1000) / RATE <= now) create(sent++);
      if (sent < total) setTimeout(tick, Math.max(0, start + (sent * 1000) / RATE - performance.now()));
      else resolve();
    };
    setTimeout(tick, 20);
  });
  const vdCount = Math.floor(total / 2);
  const until = Date.now() + TAIL_LIMIT_MS;
  const settledDown = () =>
    ended >= created &&
    created + errors >= total &&
    receiver.arrivals.size >= vdCount &&
    Date.now() - upstream.state.lastActivity > 1500;
  while (!settledDown() && Date.now() < until) await lib.sleep(100);
  const windowMs = Date.now() - t0;
  const cpuMs = lib.cpuMs(target.pid) - cpu0;
  if (sqlMarks) await sqlMark(target.child, sqlMarks, 3);
  agent.destroy();
  const sim_ = upstream.counts();

  // Completion lag: from the upstream's end (its create's arrival + the task time) to the callback, and to the first
  // query that showed the end.
  const callbackLag = [];
  const queryLag = [];
  let untagged = 0;
  for (const task of tasks) {
    if (!task || !task.id) continue;
    const createdAt = upstream.state.createdAt.get(task.n);
    if (createdAt === undefined) {
      untagged++;
      continue;
    }
    const upstreamEnd = createdAt + TASK_MS;
    if (task.endSeenAt) queryLag.push(task.endSeenAt - upstreamEnd);
    const called = receiver.arrivals.get(task.n);
    if (called !== undefined) callbackLag.push(called - upstreamEnd);
  }
  const completed = tasks.filter((t) => t && t.endSeenAt).length;
  const succeeded = tasks.filter((t) => t && t.succeeded).length;
  const pass = {
    sent: total,
    created,
    ended,
    succeeded,
    completed,
    errors,
    statuses,
    windowSeconds: lib.round(windowMs / 1000, 1),
    cpuMs,
    idleCpuMsPerSecond: lib.round(idlePerMs * 1000, 1),
    cpuMsPerTask: completed ? lib.round((cpuMs - idlePerMs * windowMs) / completed, 3) : null,
    clientQueriesPerTask: completed ? lib.round(queries / completed, 2) : null,
    upstreamPollsPerTask: completed ? lib.round(sim_.polls / completed, 2) : null,
    downloadsPerTask: completed ? lib.round(sim_.downloads / completed, 2) : null,
    downloadBytesPerTask: completed ? lib.round(sim_.downloadBytes / completed, 0) : null,
    callbacksPerVdTask: vdCount ? lib.round(receiver.deliveries() / vdCount, 2) : null,
    callbacksReceived: receiver.arrivals.size,
    vdTasks: vdCount,
    upstreamCreates: sim_.creates,
    untagged,
    callbackLagMs: lagStats(callbackLag),
    queryLagMs: lagStats(queryLag),
  };
  if (checks) Object.assign(pass, await settlementChecks(target, tasks));
  pass.holds =
    errors === 0 &&
    created === total &&
    completed === created &&
    succeeded === created &&
    receiver.arrivals.size === vdCount &&
    untagged === 0 &&
    (!checks || (pass.heldAfter === 0 && pass.inFlightAfter === 0 && pass.ledgerOk && pass.filesKept === created));
  log(
    `  ${created}/${total} created, ${completed} ended (${succeeded} succeeded), ${errors} errors; CPU ${pass.cpuMsPerTask} ms/task (idle ${pass.idleCpuMsPerSecond} ms/s subtracted); per task: ${pass.clientQueriesPerTask} queries, ${pass.upstreamPollsPerTask} polls, ${pass.downloadsPerTask} downloads; callbacks ${receiver.arrivals.size}/${vdCount}; lag callback p50/p99 ${pass.callbackLagMs.p50}/${pass.callbackLagMs.p99} ms, query ${pass.queryLagMs.p50}/${pass.queryLagMs.p99} ms` +
      (checks
        ? `; held ${pass.heldAfter}, in flight ${pass.inFlightAfter}, ledger ${pass.ledgerOk ? 'ok' : 'NOT ok'}, files kept ${pass.filesKept}/${created}`
        : '') +
      `; holds: ${pass.holds ? 'yes' : 'no'}`,
  );
  return pass;
}

function lagStats(values) {
  const p = lib.percentiles(values, [50, 95, 99]);
  return { n: values.length, p50: p.p50, p95: p.p95, p99: p.p99, max: p.max };
}

/** After the run (outside the CPU window): the books settled, the ledger verifies, every task's files stored. */
async function settlementChecks(gateway, tasks) {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  let account;
  for (let i = 0; i < 50; i++) {
    account = await lib.httpJson('GET', `${gateway.url}/admin/v1/accounts/${gateway.accountId}`, { headers: admin });
    if (account.held === 0 && account.in_flight_tasks === 0) break;
    await lib.sleep(200);
  }
  const verify = await lib.httpJson('GET', `${gateway.url}/admin/v1/ledger/verify`, { headers: admin });
  const ids = tasks.filter((t) => t && t.id).map((t) => t.id);
  let filesKept = 0;
  let filesPerTask = 0;
  const notKept = [];
  for (let i = 0; i < ids.length; i += 16) {
    const answers = await Promise.all(
      ids
        .slice(i, i + 16)
        .map((id) => lib.httpJson('GET', `${gateway.url}/admin/v1/tasks/${id}/results`, { headers: admin })),
    );
    for (const a of answers) {
      filesPerTask += a.files.length;
      if (a.files.length > 0 && a.files.every((f) => f.status === 'stored')) filesKept++;
      else if (notKept.length < 3) notKept.push({ task: a.task_id, files: a.files.map((f) => f.status) });
    }
  }
  if (notKept.length) log(`  ! files not kept, e.g. ${JSON.stringify(notKept)}`);
  return {
    heldAfter: account.held,
    inFlightAfter: account.in_flight_tasks,
    ledgerOk: verify.ok === true,
    filesKept,
    keptFilesPerTask: ids.length ? lib.round(filesPerTask / ids.length, 2) : null,
  };
}

function lifeSummary(out) {
  const fwd = lib.median(out.rounds.map((r) => r.forwarder.cpuMsPerTask));
  return Object.fromEntries(
    VARIANTS.map((v) => {
      const gw = lib.median(out.rounds.map((r) => r[v.name].cpuMsPerTask));
      return [
        v.name,
        {
          gatewayCpuMsPerTask: gw,
          forwarderCpuMsPerTask: fwd,
          forwarderOverGateway: gw ? lib.round(fwd / gw, 4) : null,
          holds: out.rounds.every((r) => r[v.name].holds) && (!out.counting[v.name] || out.counting[v.name].holds),
        },
      ];
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Part 2: keeping results side by side (create throughput).

async function keepPart() {
  const { startSimulator } = lib.requireDist('simulator/simulator.js');
  const sim = await startSimulator({ taskMs: KEEP_TASK_MS });
  const upstream = instrument(sim);
  const out = { rounds: [], portkey: null };
  const forwarder = await gatewayProcess.startForwarder(sim, { log });
  let portkey = null;
  try {
    if (PORTKEY) {
      try {
        portkey = await startPortkey(sim);
        out.portkey = { version: PORTKEY_VERSION, forwards: true, check: portkey.check };
      } catch (error) {
        out.portkey = { version: PORTKEY_VERSION, forwards: false, reason: error.message };
        log(`  ! Portkey cannot be measured: ${error.message}`);
      }
    }
    const targets = [{ name: 'forwarder', start: async () => forwarder, stop: async () => undefined }];
    for (const variant of VARIANTS)
      for (const store of ['fs', 'off'])
        targets.push({
          name: VARIANTS.length > 1 ? `gateway ${variant.name} ${store}` : `gateway ${store}`,
          variant: variant.name,
          store,
          start: () =>
            gatewayProcess.startGateway(sim, {
              tag: `keep-${store}`,
              main: variant.main,
              pgUrl: PG_URL,
              redisUrl: REDIS_URL,
              defaultPolls: true,
              nodeArgs: NODE_ARGS,
              env: { RESULT_STORE: store, ...(FAST_PATHS_OFF ? { FAST_PATHS: 'false' } : {}), ...variant.env },
              keepLogs: args['keep-logs'] === true,
              log,
            }),
          stop: (gw) => gw.stop(),
        });
    if (portkey) targets.push({ name: 'portkey', start: async () => portkey, stop: async () => undefined });
    for (let round = 1; round <= KEEP_ROUNDS; round++) {
      const row = { round };
      for (const t of lib.inTurn(targets, round)) {
        const running = await t.start();
        try {
          log(
            `keep round ${round}: ${t.name}: warm-up ${WARMUP_S} s, then ${CONNECTIONS} connections for ${DURATION_S} s`,
          );
          await createLoad(running, { duration: WARMUP_S });
          upstream.reset();
          const run = await createLoad(running, { duration: DURATION_S });
          const sim_ = upstream.counts();
          run.upstreamPollsPerCreate = run.ok ? lib.round(sim_.polls / run.ok, 3) : null;
          run.downloadsPerCreate = run.ok ? lib.round(sim_.downloads / run.ok, 3) : null;
          row[t.name] = run;
          log(
            `  ${run.rps} req/s (${run.ok} ok, ${run.non2xx} non-2xx, ${run.errors} errors), p99 ${run.latency.p99} ms; during the run: ${run.upstreamPollsPerCreate} polls and ${run.downloadsPerCreate} downloads per create`,
          );
        } finally {
          await t.stop(running);
        }
      }
      out.rounds.push(row);
    }
    out.targets = targets.map((t) => t.name);
    out.median = Object.fromEntries(targets.map((t) => [t.name, lib.median(out.rounds.map((r) => r[t.name].rps))]));
    const fwd = out.median.forwarder;
    out.ratioToForwarder = Object.fromEntries(
      Object.entries(out.median).map(([name, rps]) => [name, fwd ? lib.round(rps / fwd, 4) : null]),
    );
    const storeName = (v, store) => (VARIANTS.length > 1 ? `gateway ${v.name} ${store}` : `gateway ${store}`);
    out.fsOverOff = Object.fromEntries(
      VARIANTS.map((v) => [v.name, lib.round(out.median[storeName(v, 'fs')] / out.median[storeName(v, 'off')], 4)]),
    );
    // Each round's fs and off ran back to back: their ratio leaves out what the machine did between rounds.
    out.fsOverOffByRound = Object.fromEntries(
      VARIANTS.map((v) => [
        v.name,
        out.rounds.map((r) => lib.round(r[storeName(v, 'fs')].rps / r[storeName(v, 'off')].rps, 4)),
      ]),
    );
  } finally {
    await forwarder.stop();
    if (portkey) await portkey.stop();
    await sim.close();
  }
  return out;
}

/** Autocannon ax creates; against Portkey, its pass-through route with the simulator as the custom host. */
async function createLoad(target, { duration }) {
  const latencies = [];
  const statuses = {};
  const isPortkey = target.name === 'portkey';
  const instance = autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration,
    timeout: 10,
    headers: isPortkey
      ? target.headers
      : { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' },
    requests: [{ method: 'POST', path: isPortkey ? target.createPath : B_CREATE_PATH, body: JSON.stringify(bBody(0)) }],
  });
  instance.on('response', (_client, status, _bytes, ms) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    latencies.push(ms);
  });
  const result = await instance;
  const ok = Object.entries(statuses).reduce((n, [code, count]) => n + (code >= 200 && code < 300 ? count : 0), 0);
  return {
    requests: result.requests.total,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    seconds: result.duration,
    rps: lib.round(ok / result.duration, 1),
    latency: Object.fromEntries(Object.entries(lib.percentiles(latencies)).map(([k, v]) => [k, lib.round(v, 3)])),
    statuses,
  };
}

/**
 * The Portkey AI gateway (pinned), installed into bench/.portkey/ on first use, on a loopback port,
 * in pass-through mode (`x-portkey-provider: openai`, `x-portkey-custom-host`: the simulator's ax
 * base + `/api/v1`, so `/v1/services/...` reaches the simulator's create route). One create is sent
 * first: it must reach the simulator and come back as the simulator's 200 body, else this throws.
 */
async function startPortkey(sim) {
  const entry = path.join(PORTKEY_DIR, 'node_modules/@portkey-ai/gateway/build/start-server.js');
  const installed = path.join(PORTKEY_DIR, 'node_modules/@portkey-ai/gateway/package.json');
  if (!fs.existsSync(installed) || JSON.parse(fs.readFileSync(installed, 'utf8')).version !== PORTKEY_VERSION) {
    log(`installing @portkey-ai/gateway@${PORTKEY_VERSION} into ${path.relative(lib.ROOT, PORTKEY_DIR)}/`);
    fs.mkdirSync(PORTKEY_DIR, { recursive: true });
    execFileSync('npm', ['install', '--prefix', PORTKEY_DIR, '--no-save', `@portkey-ai/gateway@${PORTKEY_VERSION}`], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const port = await lib.freePort();
  const child = spawn(process.execPath, [entry, `--port=${port}`, '--headless'], {
    cwd: PORTKEY_DIR,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr = [];
  child.stderr.on('data', (c) => {
    stderr.push(c.toString());
    if (stderr.length > 20) stderr.shift();
  });
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  child.once('exit', () => process.removeListener('exit', reap));
  const url = `http://127.0.0.1:${port}`;
  const stop = () => lib.stopChild(child);
  for (const until = Date.now() + 30_000; ;) {
    if (child.exitCode !== null) throw new Error(`Portkey exited (code ${child.exitCode}): ${stderr.join('')}`);
    const up = await fetch(`${url}/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > until) {
      await stop();
      throw new Error('Portkey did not answer within 30 s');
    }
    await lib.sleep(200);
  }
  const headers = {
    authorization: `Bearer ${sim.endpoints.ax.apiKey}`,
    'content-type': 'application/json',
    'x-dashscope-async': 'enable',
    'x-portkey-provider': 'openai',
    'x-portkey-custom-host': `${sim.endpoints.ax.baseUrl}/api/v1`,
  };
  const createPath = '/v1/services/aigc/video-generation/video-synthesis';
  const res = await fetch(`${url}${createPath}`, { method: 'POST', headers, body: JSON.stringify(bBody(0)) });
  const text = await res.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  if (res.status !== 200 || !body || !body.output || !body.output.task_id) {
    await stop();
    const why = stderr.join('').split('\n').slice(0, 3).join(' | ');
    throw new Error(
      `Portkey ${PORTKEY_VERSION} does not forward the create: it answered ${res.status} ${text.slice(0, 200)}${why ? ` (its log: ${why})` : ''}`,
    );
  }
  log(`Portkey ${PORTKEY_VERSION} up on ${url} (pid ${child.pid}); a create through it answered the simulator's 200`);
  return { name: 'portkey', url, pid: child.pid, headers, createPath, check: { status: res.status }, stop };
}

// ---------------------------------------------------------------------------------------------------------------
// Report.

function report(results) {
  const m = results.machine;
  const lines = [
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB RAM, Node ${m.node}; database ${results.settings.database}; fast paths ${results.settings.fastPaths ? 'on' : 'off'}`,
    '',
  ];
  const life = results.life;
  if (life) {
    const s = results.settings.life;
    lines.push(
      `Part 1, the life of a task: ${s.rate} creates/s for ${s.seconds} s (ax and vd in turn), ${s.taskMs} ms tasks, each queried every ${s.queryMs} ms until it ends, vd tasks called back; RESULT_STORE=fs; result files at the simulator: ${Object.entries(
        life.resultFiles,
      )
        .map(([p, b]) => `${path.basename(p)} ${b} B`)
        .join(', ')}. Median of ${life.rounds.length} round(s).`,
      '',
    );
    const rows = [];
    for (const r of life.rounds) {
      for (const name of ['forwarder', ...VARIANTS.map((v) => v.name)]) {
        const p = r[name];
        const gw = name !== 'forwarder';
        const sql = gw && life.counting[name];
        rows.push([
          `${r.round}: ${gw ? `gateway ${name}` : 'forwarder'}`,
          `${p.completed} / ${p.sent}`,
          fmt(p.cpuMsPerTask, 3),
          fmt(p.clientQueriesPerTask),
          fmt(p.upstreamPollsPerTask),
          fmt(p.downloadsPerTask),
          `${fmt(p.callbacksPerVdTask)} (${p.callbacksReceived}/${p.vdTasks})`,
          sql ? `${fmt(sql.statementsPerTask)} (${fmt(sql.statementsPerTaskIdleSubtracted)})` : '-',
          gw ? `${p.heldAfter} / ${p.inFlightAfter} / ${p.ledgerOk ? 'ok' : 'NOT ok'} / ${p.filesKept}` : '-',
          p.holds ? 'yes' : '**no**',
        ]);
      }
    }
    lines.push(
      lib.markdownTable(
        [
          'round: target',
          'tasks ended / sent',
          'CPU ms / task (idle subtracted)',
          'client queries / task',
          'upstream polls / task',
          'result downloads / task',
          'callbacks / vd task (received)',
          'SQL statements / task (idle subtracted)',
          'held / in flight / ledger / tasks with files kept',
          'holds',
        ],
        rows,
      ),
      '',
    );
    const lagRows = [];
    for (const r of life.rounds)
      for (const name of ['forwarder', ...VARIANTS.map((v) => v.name)]) {
        const p = r[name];
        const l = (x) => `${fmt(x.p50, 0)} / ${fmt(x.p95, 0)} / ${fmt(x.p99, 0)} / ${fmt(x.max, 0)}`;
        lagRows.push([
          `${r.round}: ${name === 'forwarder' ? 'forwarder' : `gateway ${name}`}`,
          l(p.callbackLagMs),
          l(p.queryLagMs),
        ]);
      }
    lines.push(
      lib.markdownTable(
        [
          'completion lag after the upstream end, ms',
          'client callback p50 / p95 / p99 / max (vd)',
          'first query showing the end p50 / p95 / p99 / max',
        ],
        lagRows,
      ),
      '',
    );
    lines.push(
      lib.markdownTable(
        ['event-loop delay in the counting pass, ms', 'p50 / p99 / p99.9 / max'],
        VARIANTS.map(({ name }) => {
          const d = life.counting[name].loopDelayMs;
          return [`gateway ${name}`, `${fmt(d.p50)} / ${fmt(d.p99)} / ${fmt(d.p999)} / ${fmt(d.max)}`];
        }),
      ),
      '',
    );
    lines.push(
      lib.markdownTable(
        ['variant', 'gateway CPU ms / task', 'forwarder CPU ms / task', 'forwarder / gateway', 'holds'],
        Object.entries(life.summary).map(([name, x]) => [
          name,
          fmt(x.gatewayCpuMsPerTask, 3),
          fmt(x.forwarderCpuMsPerTask, 3),
          `**${fmt(x.forwarderOverGateway * 100, 1)}%**`,
          x.holds ? 'yes' : '**no**',
        ]),
      ),
      '',
    );
  }
  const keep = results.keep;
  if (keep) {
    const s = results.settings.keep;
    lines.push(
      `Part 2, keeping results side by side: ax creates, ${s.connections} connections for ${s.durationSeconds} s after ${s.warmupSeconds} s warm-up, ${s.taskMs} ms tasks (the sync and keep workers poll, settle and download during the run); median of ${keep.rounds.length} alternated rounds.`,
      '',
    );
    if (keep.portkey && !keep.portkey.forwards) lines.push(`**Portkey not measured**: ${keep.portkey.reason}`, '');
    lines.push(
      lib.markdownTable(
        ['target', 'req/s (median)', 'each round', '/ forwarder', 'polls / create', 'downloads / create'],
        keep.targets.map((name) => [
          name,
          fmt(keep.median[name], 0),
          keep.rounds.map((r) => fmt(r[name].rps, 0)).join(', '),
          `${fmt(keep.ratioToForwarder[name] * 100, 1)}%`,
          fmt(lib.median(keep.rounds.map((r) => r[name].upstreamPollsPerCreate)), 3),
          fmt(lib.median(keep.rounds.map((r) => r[name].downloadsPerCreate)), 3),
        ]),
      ),
      '',
    );
    const cost = Object.entries(keep.fsOverOff).map(([v, x]) => {
      const byRound = (keep.fsOverOffByRound || {})[v] || [];
      const paired = byRound.length
        ? `; by round ${byRound.map((r) => fmt(r * 100, 1)).join(', ')}%, median **${fmt(lib.median(byRound) * 100, 1)}%**`
        : '';
      return `${v}: fs / off = **${fmt(x * 100, 1)}%** (medians)${paired}`;
    });
    lines.push(`Keeping's cost on create throughput: ${cost.join('; ')}.`);
    if (keep.ratioToForwarder.portkey !== undefined)
      lines.push(
        `Against the forwarder: Portkey ${fmt(keep.ratioToForwarder.portkey * 100, 1)}%, ${keep.targets
          .filter((t) => t.startsWith('gateway'))
          .map((t) => `${t} ${fmt(keep.ratioToForwarder[t] * 100, 1)}%`)
          .join(', ')}.`,
      );
  }
  return lines.join('\n');
}

function log(message) {
  process.stderr.write(`[task-life] ${message}\n`);
}

main().catch((error) => {
  process.stderr.write(`task-life failed: ${error.stack || error}\n`);
  process.exit(1);
});
