'use strict';
/**
 * Three gateway instances behind HAProxy (deploy/haproxy/haproxy.cfg, as docker-compose.yml's scale
 * profile runs it) on a PostgreSQL and a Redis of this phase's own, under a mixed load: creates on
 * every family with an Idempotency-Key (retried on no answer, 503 and 409 in progress), each task
 * queried until it ends, client callbacks to a local receiver, upstream callbacks, result downloads.
 * Meanwhile: one instance killed (SIGKILL) and restarted, Redis restarted, PostgreSQL restarted.
 * Measured: tasks lost or doubled, charges, kept results, the answers during each event, each
 * instance's share of the upstream polls, and completion lag with upstream callbacks on and off.
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const bench = require('../bench/lib');
const { KINDS, KIND_NAMES } = require('./tasks');
const { PostgresServer, RedisServer, HaproxyServer } = require('./services');

/** How long a simulated task runs. */
const TASK_MS = 3000;
/** How long a client keeps retrying one create with its Idempotency-Key. */
const RETRY_WINDOW_MS = 45_000;
/** How often a client queries each of its open tasks. */
const QUERY_EVERY_MS = 200;
/**
 * While PostgreSQL is down, an error answer later than this counts as slow (the pool's connect
 * timeout, 1.5 s, and a second), and so does any answer later than OUTAGE_ANY_ANSWER_MS (a request
 * that straddled the restart and then succeeded waited for its connection too).
 */
const OUTAGE_ANSWER_MS = 2500;
const OUTAGE_ANY_ANSWER_MS = 5000;
/** Gateway CPU ms per operation in the capacity model (docs/benchmarks.md), to compare with what the windows used. */
const MODEL_CPU_MS = { create: 0.89, query: 0.245, poll: 0.4, settlement: 0.65 };
/** Kinds whose create takes a client callback_url. */
const HOOKED = new Set(['vd', 'kl-voice']);

function percentile(values, p) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (value) =>
  value === null || value === undefined ? 'n/a' : `${Math.round(value).toLocaleString('en-US')} ms`;

/** The signed result URLs (or the content route) of a finished task, from its query answer. */
function resultUrlsOf(kind, json, id) {
  if (!json) return [];
  if (kind === 'ax-new' || kind === 'ax-old') return [json.output && json.output.video_url].filter(Boolean);
  if (kind === 'vd') return (json.creations || []).map((c) => c.url).filter(Boolean);
  if (kind === 'kl-voice')
    return ((json.data && json.data.task_result && json.data.task_result.voices) || []).map((v) => v.trial_url);
  if (kind === 'oa') return [`/v1/videos/${id}/content`];
  return [];
}

/**
 * What PUBLIC_BASE_URL points at: a pass-through to HAProxy that, while `upstreamCallbacks` is off,
 * answers the upstreams' callbacks itself and drops them (an upstream that does not call back).
 */
function startFront(target) {
  const state = { upstreamCallbacks: true, dropped: 0, forwarded: 0 };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    if (req.url.startsWith('/callbacks/upstream/')) {
      if (!state.upstreamCallbacks) {
        state.dropped++;
        req.resume();
        return void res.writeHead(204).end();
      }
      state.forwarded++;
    }
    const out = http.request(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      },
    );
    // HAProxy closed without an answer (an instance died under the request): so does this front.
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        state,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

/** Client callbacks: the first delivery time per task, and how many deliveries each webhook-id had. */
function startReceiver() {
  const firstAt = new Map();
  const perWebhook = new Map();
  /** When each webhook-id was first delivered. */
  const firstByWebhook = new Map();
  /** When each repeated delivery of a webhook-id arrived, and when that webhook-id first did. */
  const repeatsAt = [];
  const webhooksPerTask = new Map();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // Counted by its webhook-id alone.
      }
      const taskId = body.id || (body.data && body.data.task_id) || (body.output && body.output.task_id);
      const webhookId = String(req.headers['webhook-id']);
      if (taskId && !firstAt.has(taskId)) firstAt.set(taskId, Date.now());
      if (perWebhook.has(webhookId))
        repeatsAt.push({ at: Date.now(), firstAt: firstByWebhook.get(webhookId), webhookId });
      else firstByWebhook.set(webhookId, Date.now());
      perWebhook.set(webhookId, (perWebhook.get(webhookId) || 0) + 1);
      if (!webhooksPerTask.has(taskId)) webhooksPerTask.set(taskId, new Set());
      webhooksPerTask.get(taskId).add(webhookId);
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/hook`,
        firstAt,
        /** Each repeated delivery of a webhook-id: when, when it was first delivered, and which. */
        repeatsAt,
        /** Tasks called back under more than one webhook-id: a second callback, which receivers cannot tell apart. */
        secondIds() {
          let n = 0;
          for (const ids of webhooksPerTask.values()) if (ids.size > 1) n += ids.size - 1;
          return n;
        },
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

/** Upstream GETs (the sync worker's polls and the callbacks' syncs) one instance has made since it started. */
async function upstreamGets(lib, gw) {
  const res = await lib.request('GET', `${gw.url}/metrics`, { timeoutMs: 5000 });
  if (res.status !== 200) return null;
  let total = 0;
  for (const line of res.text.split('\n'))
    if (line.startsWith('gateway_upstream_request_duration_seconds_count{') && line.includes('method="GET"'))
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  return total;
}

async function run(ctx) {
  const { lib, report, sim } = ctx;
  const short = ctx.short;
  const plan = {
    clients: short ? 4 : 6,
    steadyMs: short ? 20_000 : 60_000,
    gapMs: short ? 6_000 : 10_000,
    redisOutageMs: short ? 4_000 : 8_000,
    pgOutageMs: short ? 6_000 : 10_000,
  };
  const random = lib.rng(ctx.seed + 7);
  const dir = path.join(ctx.dir, 'scale');
  fs.mkdirSync(dir, { recursive: true });
  const cleanups = [];
  const cleanUp = async () => {
    for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
  };

  // Timestamps of every upstream request, so a task's end is known: its create's arrival + TASK_MS.
  const arrivedAt = new WeakMap();
  const push = sim.requests.push.bind(sim.requests);
  sim.requests.push = (...records) => {
    for (const record of records) arrivedAt.set(record, Date.now());
    return push(...records);
  };
  cleanups.push(async () => delete sim.requests.push);
  sim.reset();
  sim.setTaskMs(TASK_MS);

  const pg = new PostgresServer({ port: await lib.freePort() });
  const forget = ctx.onInterrupt(() => pg.remove());
  cleanups.push(async () => {
    pg.remove();
    forget();
  });
  const redis = new RedisServer({ dir: path.join(dir, 'redis'), port: await lib.freePort() });
  cleanups.push(() => redis.stop());
  let haproxy = null;
  const forgetChildren = ctx.onInterrupt(() => {
    for (const child of [redis.child, haproxy && haproxy.child]) if (child) child.kill('SIGKILL');
  });
  cleanups.push(async () => forgetChildren());
  try {
    lib.log(`scale: PostgreSQL ${pg.version} and Redis of its own`);
    await pg.init();
    await redis.start();
    const ports = [await lib.freePort(), await lib.freePort(), await lib.freePort()];
    haproxy = new HaproxyServer({
      dir,
      port: await lib.freePort(),
      statsPort: await lib.freePort(),
      servers: ports.map((p) => `127.0.0.1:${p}`),
    });
    const front = await startFront(haproxy.port);
    cleanups.push(() => front.close());
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const resultsDir = path.join(dir, 'results');
    const env = {
      PUBLIC_BASE_URL: front.url,
      CALLBACK_ALLOW_PRIVATE: 'true',
      CALLBACK_RETRY_BASE_MS: '500',
      RESULT_STORE: 'fs',
      RESULT_STORE_DIR: resultsDir,
      UPSTREAM_TIMEOUT_MS: '5000',
      // A download whose outcome could not be recorded (the database gone) is taken up again once its
      // lease, this time limit, runs out: 20 s instead of 5 minutes, so the run sees it kept.
      RESULT_DOWNLOAD_TIMEOUT_MS: '20000',
      // The sync worker as deployed: polls after 1 s, x1.5, at most 60 s.
      SYNC_INTERVAL_MS: '100',
      SYNC_POLL_BASE_MS: '1000',
      SYNC_POLL_MAX_MS: '60000',
      DATABASE_POOL_SIZE: '10',
      // HAProxy connects over loopback: the instances take the client's address from its X-Forwarded-For, as deployed.
      TRUST_PROXY: 'loopback',
    };
    const db = { DATABASE_URL: pg.url, REDIS_URL: redis.url };
    const gateways = [];
    for (const [i, port] of ports.entries()) {
      const gw = new lib.Gateway({
        name: `scale#${i + 1}`,
        env: lib.gatewayEnv(sim, db, env),
        port,
        logFile: path.join(dir, `gateway-${i + 1}.log`),
      });
      gateways.push(gw);
    }
    // The run stops them in any case and scans their logs.
    for (const gw of gateways) {
      ctx.adopt(gw);
      await gw.start();
    }
    report.instances = Math.max(report.instances, gateways.length);
    await haproxy.start();
    cleanups.push(() => haproxy.stop());
    const lb = haproxy.url;
    await lib.waitFor(async () => Object.values(await haproxy.serverStates()).every((s) => s === 'UP'), 15_000, 250);
    const admin = lib.adminClient(lb);

    const acct = await admin.account('scale');
    ctx.secret('scale key', acct.key);
    const rpm = 60;
    const limited = await admin.account('scale-rpm', { rpm });
    ctx.secret('scale rpm key', limited.key);

    // --- what the clients see, by event
    let event = null; // {name, from}
    const events = {}; // name -> {from, to, answers: [{startedAt, ms, status, retryAfter, path}]}
    const startEvent = (name) => {
      event = { name, from: Date.now(), answers: [] };
      events[name] = event;
      lib.log(`scale: ${name}`);
    };
    const endEvent = () => {
      if (event) event.to = Date.now();
      event = null;
    };
    const note = (label, res, startedAt, pathname) => {
      // The balancer's own answer (an instance died under the request, or none was up) has no
      // X-Request-Id: the gateway error object and Retry-After, but not the family's native fields,
      // which only the gateway knows. Counted apart; every other error is checked as usual.
      const fromBalancer = res.status === 503 && !(res.headers && res.headers['x-request-id']);
      if (fromBalancer) stats.balancer503++;
      ctx.observe(label, res, {
        upstreamFaults: true,
        path: pathname,
        skipShape:
          res.status === 0 ||
          (fromBalancer && res.json && res.json.error && res.json.error.code === 'service_unavailable'),
      });
      if (event)
        event.answers.push({
          startedAt,
          ms: res.ms,
          status: res.status,
          retryAfter: res.headers && res.headers['retry-after'],
          timedOut: Boolean(res.timedOut),
          path: pathname,
        });
    };

    const tasks = new Map(); // id -> task
    const byKey = new Map(); // idempotency key -> id
    const stats = {
      creates: 0,
      retries: 0,
      still409: 0,
      secondId: 0,
      gaveUp: 0,
      queries: 0,
      downloads: 0,
      balancer503: 0,
    };
    let window = null; // 'on' | 'off' | null: tasks created in a steady window count for its lag
    const windowEnds = {}; // ... if they ended upstream before the window did (not in the event after it)
    let loadOn = true;
    const auth = { authorization: `Bearer ${acct.key}` };

    async function create(w, n) {
      const kind = KIND_NAMES[(w + n) % KIND_NAMES.length];
      const tag = `s${w}x${n}q`;
      const key = `scale-${w}-${n}`;
      const body = KINDS[kind].body(tag, HOOKED.has(kind) ? receiver.url : undefined);
      const first = Date.now();
      stats.creates++;
      let last;
      for (let attempt = 0; ; attempt++) {
        if (attempt) stats.retries++;
        const startedAt = Date.now();
        const res = await lib.request('POST', `${lb}${KINDS[kind].path}`, {
          headers: { ...auth, 'idempotency-key': key },
          body,
          timeoutMs: 10_000,
        });
        note('scale create', res, startedAt, KINDS[kind].path);
        last = res;
        const retryable =
          res.status === 0 ||
          res.status === 503 ||
          (res.status === 409 && /idempotency_in_progress/.test(res.text || ''));
        if (!retryable || Date.now() - first > RETRY_WINDOW_MS) break;
        const after = Number(res.headers && res.headers['retry-after']) || 0.5;
        await lib.sleep(Math.min(after * 1000, 2000) * (0.5 + random() / 2));
      }
      if (last.status === 409) stats.still409++;
      const id = last.status >= 200 && last.status < 300 ? KINDS[kind].idOf(last.json) : undefined;
      if (!id) {
        stats.gaveUp++;
        ctx.example('scale create', `${kind} -> ${last.status || last.error}: ${(last.text || '').slice(0, 160)}`);
        return;
      }
      if (byKey.has(key) && byKey.get(key) !== id) stats.secondId++;
      byKey.set(key, id);
      if (!tasks.has(id))
        tasks.set(id, { id, kind, tag, window, createdAt: first, nextQueryAt: Date.now(), seenAt: null, urls: null });
    }

    async function queryDue() {
      const now = Date.now();
      const due = [...tasks.values()].filter((t) => t.seenAt === null && t.nextQueryAt <= now);
      await lib.pool(due, 8, async (task) => {
        const pathname = KINDS[task.kind].query(task.id);
        const startedAt = Date.now();
        const res = await lib.request('GET', `${lb}${pathname}`, { headers: auth, timeoutMs: 10_000 });
        stats.queries++;
        note('scale query', res, startedAt, pathname);
        task.nextQueryAt = Date.now() + QUERY_EVERY_MS;
        if (res.status === 200 && KINDS[task.kind].terminal.includes(KINDS[task.kind].statusOf(res.json))) {
          task.seenAt = Date.now();
          task.urls = resultUrlsOf(task.kind, res.json, task.id);
          task.downloadFailures = 0;
        }
      });
    }

    async function downloadDue() {
      const due = [...tasks.values()].filter((t) => t.urls && t.urls.length && !t.downloaded);
      await lib.pool(due, 4, async (task) => {
        let ok = true;
        for (const url of task.urls) {
          const target = url.startsWith('/') ? `${lb}${url}` : url;
          const startedAt = Date.now();
          const res = await lib.request('GET', target, { headers: url.startsWith('/') ? auth : {}, timeoutMs: 15_000 });
          stats.downloads++;
          note('scale download', res, startedAt, url.startsWith('/') ? url : undefined);
          if (res.status !== 200 || !res.text) ok = false;
        }
        if (ok) task.downloaded = true;
        else task.downloadFailures++;
      });
    }

    // The rate-limited account asks ~4 times a second: the limit lets 60 a minute through.
    const probe = { passed: 0, limited: 0, passedDuringRedis: 0, limitedDuringRedis: 0, other: 0 };
    async function probeRateLimit() {
      while (loadOn) {
        const startedAt = Date.now();
        const res = await lib.request('GET', `${lb}/kl/v1/general/custom-voices?pageSize=1`, {
          headers: { authorization: `Bearer ${limited.key}` },
          timeoutMs: 10_000,
        });
        note('scale rpm', res, startedAt, '/kl/v1/general/custom-voices');
        const inRedis = event && event.name === 'redis';
        if (res.status === 200) {
          probe.passed++;
          if (inRedis) probe.passedDuringRedis++;
        } else if (res.status === 429) {
          probe.limited++;
          if (inRedis) probe.limitedDuringRedis++;
        } else probe.other++;
        await lib.sleep(250);
      }
    }

    // The instances' own CPU with no request at all (workers looking for work, timers), per second.
    const cpu = () => gateways.reduce((sum, gw) => sum + bench.cpuMs(gw.child.pid), 0);
    const idle0 = [cpu(), Date.now()];
    await lib.sleep(5000);
    const idleCpuPerSecond = ((cpu() - idle0[0]) * 1000) / (Date.now() - idle0[1]);

    const clients = Array.from({ length: plan.clients }, async (_, w) => {
      for (let n = 0; loadOn; n++) {
        await create(w, n);
        await lib.sleep(150 + Math.floor(random() * 250));
      }
    });
    const watcher = (async () => {
      while (loadOn || [...tasks.values()].some((t) => t.seenAt === null)) {
        await queryDue();
        await downloadDue();
        await lib.sleep(50);
      }
    })();
    const prober = probeRateLimit();

    // --- the timeline
    const shares = gateways.map(() => 0);
    const windows = {};
    const counts = () => ({ ...stats, ended: [...tasks.values()].filter((t) => t.seenAt).length });
    async function steady(name) {
      window = name;
      const before = await Promise.all(gateways.map((gw) => upstreamGets(lib, gw)));
      const [cpu0, counts0, from] = [cpu(), counts(), Date.now()];
      await lib.sleep(plan.steadyMs);
      const after = await Promise.all(gateways.map((gw) => upstreamGets(lib, gw)));
      const [cpu1, counts1] = [cpu(), counts()];
      window = null;
      windowEnds[name] = Date.now();
      after.forEach((n, i) => (shares[i] += n - before[i]));
      const delta = (key) => counts1[key] - counts0[key];
      windows[name] = {
        ms: Date.now() - from,
        cpuMs: cpu1 - cpu0,
        creates: delta('creates'),
        queries: delta('queries'),
        downloads: delta('downloads'),
        ended: delta('ended'),
        gets: after.reduce((sum, n, i) => sum + n - before[i], 0),
      };
      lib.log(`scale: window ${name}: ${JSON.stringify(windows[name])}`);
    }

    front.state.upstreamCallbacks = true;
    await lib.sleep(3000); // warm-up: the first tasks reach their first polls
    await steady('on');
    // The window's last tasks end and are synced before the kill, so its lag is the steady state's.
    await lib.sleep(TASK_MS + 8000);

    startEvent('kill');
    const victim = gateways[1];
    await victim.kill();
    await lib.sleep(2000);
    const restarting = Date.now();
    await victim.start();
    events.kill.readyMs = Date.now() - restarting;
    report.killsSurvived++;
    await lib.sleep(plan.gapMs);
    endEvent();

    startEvent('redis');
    await redis.stop();
    await lib.sleep(plan.redisOutageMs);
    await redis.start();
    events.redis.restartedAt = Date.now();
    await lib.sleep(plan.gapMs);
    endEvent();

    startEvent('postgres');
    await pg.stop('fast');
    events.postgres.stoppedAt = Date.now();
    await lib.sleep(plan.pgOutageMs);
    await pg.start();
    events.postgres.restartedAt = Date.now();
    await lib.sleep(plan.gapMs);
    endEvent();

    front.state.upstreamCallbacks = false;
    await lib.sleep(3000);
    await steady('off');

    loadOn = false;
    await Promise.all([...clients, prober]);
    lib.log(`scale: load stopped; ${tasks.size} task IDs received; draining`);
    const drainUntil = Date.now() + 90_000;
    while (Date.now() < drainUntil && [...tasks.values()].some((t) => t.seenAt === null)) await lib.sleep(500);
    loadOn = false;
    await watcher;
    // The downloads left, and the client callbacks still on their way.
    const hooked = [...tasks.values()].filter((t) => HOOKED.has(t.kind));
    const finishUntil = Date.now() + 60_000;
    while (
      Date.now() < finishUntil &&
      ([...tasks.values()].some((t) => t.urls && t.urls.length && !t.downloaded) ||
        hooked.some((t) => !receiver.firstAt.has(t.id)))
    ) {
      await downloadDue();
      await lib.sleep(500);
    }
    await lib.sleep(1500); // a late duplicate callback would arrive now

    // --- counts
    const open = [...tasks.values()].filter((t) => t.seenAt === null);
    report.tasksCreated += tasks.size;
    report.tasksEnded += tasks.size - open.length;
    report.tasksLost += open.length + stats.gaveUp;
    report.retries409 += stats.still409;
    report.secondTaskOnRetry += stats.secondId;
    // The same webhook-id again is at-least-once delivery (receivers dedupe on it): expected when an
    // instance died, or the database went away, between a delivery and its record (so the first
    // delivery came during an event; the repeat comes when the claim's lease, 2 x
    // CALLBACK_TIMEOUT_MS, runs out, maybe after the event), or when the gateway saw the attempt fail
    // (a time-out: it logs the delivery's ID); any other repeat is a duplicate, and so is a second
    // webhook-id for one task.
    const failedAttempts = loggedFailedDeliveries(gateways.map((gw) => gw.logFile));
    // What the gateways could not classify (their 500s), by type, code and message, for the examples.
    for (const line of loggedLines(
      gateways.map((gw) => gw.logFile),
      'unhandled error',
    ).slice(0, 3))
      ctx.example('unhandled error', JSON.stringify(line.err));
    const during = (at) => Object.values(events).some((ev) => at >= ev.from && at <= ev.to);
    const sinceEvents = (at) =>
      Object.entries(events)
        .map(([name, ev]) => `${((at - ev.from) / 1000).toFixed(1)} s from the ${name} event's start`)
        .join(', ');
    const expected = receiver.repeatsAt.filter((r) => during(r.firstAt) || failedAttempts.has(r.webhookId));
    const redeliveredInEvents = expected.length;
    const repeatsElsewhere = receiver.repeatsAt.length - expected.length;
    for (const r of receiver.repeatsAt)
      lib.log(`scale: webhook-id ${r.webhookId} again after ${r.at - r.firstAt} ms; first ${sinceEvents(r.firstAt)}`);
    for (const r of receiver.repeatsAt.filter((x) => !expected.includes(x)).slice(0, 3))
      ctx.example(
        'callback repeat',
        `webhook-id ${r.webhookId} delivered again ${r.at - r.firstAt} ms after its first delivery (${sinceEvents(r.firstAt)}), with no failed attempt logged`,
      );
    report.callbackDuplicates += receiver.secondIds() + repeatsElsewhere;
    report.callbacksMissing += hooked.filter((t) => !receiver.firstAt.has(t.id)).length;
    const downloadsFailed = [...tasks.values()].filter((t) => t.urls && t.urls.length && !t.downloaded).length;
    report.resultDownloadsFailed += downloadsFailed;

    // Answers during the events: 2xx, 4xx, or 503 with Retry-After; while PostgreSQL is down, in time.
    const eventRows = [];
    for (const [name, ev] of Object.entries(events)) {
      // A connection closed before any answer (HAProxy does so when an instance dies under a request
      // that came on a kept-alive connection, as a server closing an idle one would) is retried by the
      // client (RFC 9112 9.3.1; creates with their Idempotency-Key): counted apart. A hang is bad.
      const closed = ev.answers.filter((a) => a.status === 0 && !a.timedOut);
      const bad = ev.answers.filter(
        (a) =>
          !(
            (a.status >= 200 && a.status < 500) ||
            (a.status === 503 && a.retryAfter) ||
            (a.status === 0 && !a.timedOut)
          ),
      );
      report.outageBadAnswers += bad.length;
      for (const a of bad.slice(0, 3))
        ctx.example('outage answer', `${name}: ${a.path} -> ${a.status} in ${Math.round(a.ms)} ms`);
      const down =
        name === 'postgres'
          ? ev.answers.filter((a) => a.startedAt >= ev.stoppedAt && a.startedAt < ev.restartedAt)
          : [];
      if (name === 'postgres') {
        const slow = down.filter(
          (a) => a.ms > OUTAGE_ANY_ANSWER_MS || (a.ms > OUTAGE_ANSWER_MS && !(a.status >= 200 && a.status < 300)),
        );
        report.outageSlowAnswers += slow.length;
        for (const a of slow.slice(0, 3))
          ctx.example('slow outage answer', `${a.path} -> ${a.status} in ${Math.round(a.ms)} ms`);
      }
      const counted = name === 'postgres' ? down : ev.answers;
      const by = {};
      for (const a of counted) by[a.status || 'none'] = (by[a.status || 'none'] || 0) + 1;
      const createsOk = ev.answers.filter((a) => a.path && a.path in PATHS && a.status >= 200 && a.status < 300);
      const after = ev.restartedAt ? createsOk.filter((a) => a.startedAt >= ev.restartedAt) : [];
      const recovered = after.length ? Math.min(...after.map((a) => a.startedAt + a.ms)) - ev.restartedAt : null;
      eventRows.push([
        name === 'postgres'
          ? `PostgreSQL stopped (fast) ${plan.pgOutageMs / 1000} s: answers while down`
          : name === 'redis'
            ? `Redis stopped ${plan.redisOutageMs / 1000} s, restarted empty (and ${plan.gapMs / 1000} s after)`
            : `instance 2 killed (-9), restarted after 2 s, ready ${ms(ev.readyMs)} later (and ${plan.gapMs / 1000} s after)`,
        String(counted.length),
        Object.entries(by)
          .map(([s, n]) => `${s}: ${n}`)
          .join(', '),
        `${ms(
          percentile(
            counted.map((a) => a.ms),
            50,
          ),
        )} / ${ms(
          percentile(
            counted.map((a) => a.ms),
            99,
          ),
        )} / ${ms(counted.length ? Math.max(...counted.map((a) => a.ms)) : null)}`,
        recovered === null ? '' : ms(recovered),
        String(closed.length),
        String(bad.length),
      ]);
    }

    // Poll shares over both steady windows (no restart inside either).
    const totalGets = shares.reduce((a, b) => a + b, 0);
    const shareRows = shares.map((n, i) => {
      const share = totalGets ? (100 * n) / totalGets : 0;
      const off = Math.abs(share - 100 / 3) > 10;
      if (off) report.pollShareOff++;
      return [`instance ${i + 1}`, String(n), `${share.toFixed(1)}%`, off ? 'NOT OK' : 'ok'];
    });

    // Completion lag by window: the upstream task's end (its create's arrival + TASK_MS) to the
    // client's query showing it, and to the client callback's delivery.
    const createdAt = new Map();
    for (const record of sim.requests) {
      if (record.method !== 'POST') continue;
      const text = JSON.stringify(record.body || '');
      for (const match of text.matchAll(/\bs\d+x\d+q\b/g))
        if (!createdAt.has(match[0])) createdAt.set(match[0], arrivedAt.get(record));
    }
    const lagRows = [];
    for (const name of ['on', 'off'])
      for (const [label, kinds] of LAG_GROUPS) {
        const inWindow = [...tasks.values()].filter(
          (t) =>
            t.window === name &&
            kinds.has(t.kind) &&
            createdAt.get(t.tag) &&
            createdAt.get(t.tag) + TASK_MS <= windowEnds[name] &&
            t.seenAt,
        );
        const seen = inWindow.map((t) => t.seenAt - (createdAt.get(t.tag) + TASK_MS));
        const hookedIn = inWindow.filter((t) => receiver.firstAt.has(t.id));
        const called = hookedIn.map((t) => receiver.firstAt.get(t.id) - (createdAt.get(t.tag) + TASK_MS));
        lagRows.push([
          `upstream callbacks ${name}`,
          label,
          String(inWindow.length),
          `${ms(percentile(seen, 50))} / ${ms(percentile(seen, 99))}`,
          called.length ? `${ms(percentile(called, 50))} / ${ms(percentile(called, 99))}` : '',
        ]);
      }

    // Kept results: one row per file and slot, every one stored, one file on disk per stored row.
    const { Client } = require('pg');
    const client = new Client({ connectionString: pg.url });
    await client.connect();
    const keptUntil = Date.now() + 90_000;
    let pending = 0;
    for (;;) {
      const r = await client.query(
        `SELECT count(*)::int AS n FROM result_files WHERE status NOT IN ('stored', 'skipped')`,
      );
      pending = r.rows[0].n;
      if (!pending || Date.now() > keptUntil) break;
      await lib.sleep(1000);
    }
    const twice = (
      await client.query(
        `SELECT count(*)::int AS n FROM (SELECT task_id, slot FROM result_files GROUP BY task_id, slot HAVING count(*) > 1) d`,
      )
    ).rows[0].n;
    const stored = (await client.query(`SELECT count(*)::int AS n FROM result_files WHERE status = 'stored'`)).rows[0]
      .n;
    const succeeded = (
      await client.query(
        `SELECT count(*)::int AS n FROM tasks t WHERE t.phase = 'succeeded' AND NOT EXISTS (SELECT 1 FROM result_files f WHERE f.task_id = t.id)`,
      )
    ).rows[0].n;
    await client.end();
    const { files, parts } = countFiles(resultsDir);
    const notKeptOnce = pending + twice + Math.abs(files - stored) + succeeded;
    report.resultsNotKeptOnce += notKeptOnce;
    if (notKeptOnce)
      ctx.example(
        'results',
        `pending ${pending}, twice ${twice}, stored ${stored} vs files ${files}, succeeded without files ${succeeded}`,
      );

    // Holds, slots, charges and the ledger, through the balancer.
    const ids = new Set(tasks.keys());
    const final = await ctx.settled(admin, [acct.id, limited.id], ids, 60_000);
    ctx.account(final, 'scale');

    ctx.figures(
      `Scale: 3 instances behind HAProxy, own PostgreSQL + Redis (${short ? 'short' : 'long'} form): the events`,
      ['event', 'answers', 'statuses', 'p50 / p99 / max', 'first create after restart', 'closed, retried', 'bad'],
      eventRows,
    );
    ctx.figures(
      'Scale: upstream polls by instance (both steady windows)',
      ['instance', 'upstream GETs', 'share', 'within 10 points'],
      shareRows,
    );
    ctx.figures(
      `Scale: completion lag from the upstream task's end (client queries every ${QUERY_EVERY_MS} ms)`,
      ['window', 'tasks of', 'tasks', 'to the query: p50 / p99', 'to the client callback: p50 / p99'],
      lagRows,
    );
    const cpuRows = Object.entries(windows).map(([name, w]) => {
      const model =
        w.creates * MODEL_CPU_MS.create +
        w.queries * MODEL_CPU_MS.query +
        w.gets * MODEL_CPU_MS.poll +
        w.ended * MODEL_CPU_MS.settlement;
      const idle = (idleCpuPerSecond * w.ms) / 1000;
      return [
        `upstream callbacks ${name}, ${(w.ms / 1000).toFixed(0)} s`,
        `${w.creates} / ${w.queries} / ${w.gets} / ${w.ended} / ${w.downloads}`,
        (w.gets / Math.max(1, w.ended)).toFixed(2),
        `${w.cpuMs.toLocaleString('en-US')} ms`,
        `${Math.round(idle).toLocaleString('en-US')} ms`,
        `${Math.round(model).toLocaleString('en-US')} ms`,
        ((w.cpuMs - idle) / Math.max(1, model)).toFixed(2),
      ];
    });
    ctx.figures(
      'Scale: the steady windows against the capacity model (gateway CPU of the 3 instances)',
      [
        'window',
        'creates / queries / upstream GETs / tasks ended / result downloads',
        'upstream GETs per task ended',
        'CPU used',
        'of which idle (measured before the load)',
        'model (creates, queries, polls, settlements)',
        '(used - idle) / model',
      ],
      cpuRows,
    );
    ctx.figures(
      'Scale: totals',
      ['measure', 'value'],
      [
        [
          'tasks (IDs clients received) / ended / lost',
          `${tasks.size} / ${tasks.size - open.length} / ${open.length + stats.gaveUp}`,
        ],
        [
          'creates / retries / queries / result downloads',
          `${stats.creates} / ${stats.retries} / ${stats.queries} / ${stats.downloads}`,
        ],
        [
          'result files stored / on disk / twice; unfinished writes (.part) a killed instance left',
          `${stored} / ${files} / ${twice}; ${parts}`,
        ],
        [
          'client callbacks: tasks / missing / second webhook-id for a task / same webhook-id again (during an event or after a failed attempt; otherwise)',
          `${hooked.length} / ${report.callbacksMissing} / ${receiver.secondIds()} / ${redeliveredInEvents}; ${repeatsElsewhere}`,
        ],
        [
          "the balancer's own 503 answers (gateway error object, Retry-After: 1, no native fields)",
          String(stats.balancer503),
        ],
        ['upstream callbacks forwarded / dropped (window off)', `${front.state.forwarded} / ${front.state.dropped}`],
        [
          `rate limit ${rpm}/min (probe ~240/min): passed / 429, of which while Redis was down`,
          `${probe.passed} / ${probe.limited}; ${probe.passedDuringRedis} / ${probe.limitedDuringRedis}`,
        ],
      ],
    );
    ctx.detail('scale', {
      plan,
      stats,
      probe,
      shares,
      events: Object.fromEntries(Object.entries(events).map(([k, v]) => [k, v.answers.length])),
    });
    await Promise.all(gateways.map((gw) => gw.stop()));
  } finally {
    await cleanUp();
  }
}

/** kl and vd (and the OpenAI face over vd) give the upstream the gateway's callback URL; ax's upstream takes none (polls only). */
const LAG_GROUPS = [
  ['kl and vd (the upstream calls back)', new Set(['vd', 'kl-voice', 'oa'])],
  ['ax (no upstream callback)', new Set(['ax-new', 'ax-old'])],
];

const PATHS = Object.fromEntries(KIND_NAMES.map((k) => [KINDS[k].path, true]));

/** The IDs of client callback deliveries whose attempt the gateways logged as failed (each is a webhook-id). */
function loggedFailedDeliveries(files) {
  return new Set(
    loggedLines(files, 'client callback attempt failed')
      .map((entry) => entry.deliveryId)
      .filter(Boolean),
  );
}

/** The gateways' JSON log lines whose message starts with `msg`. */
function loggedLines(files, msg) {
  const lines = [];
  for (const file of files) {
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.includes(msg)) continue;
      try {
        const entry = JSON.parse(line);
        if (typeof entry.msg === 'string' && entry.msg.startsWith(msg)) lines.push(entry);
      } catch {
        // Not a JSON line.
      }
    }
  }
  return lines;
}

/** Kept files under `dir`, and the `.part` files of writes a killed process never finished (not results). */
function countFiles(dir, counts = { files: 0, parts: 0 }) {
  if (!fs.existsSync(dir)) return counts;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) countFiles(path.join(dir, entry.name), counts);
    else if (entry.name.endsWith('.part')) counts.parts++;
    else if (entry.isFile()) counts.files++;
  }
  return counts;
}

module.exports = { name: 'scale', run };
