'use strict';
/**
 * Sync-worker scale (`npm run bench:sync`; see docs/benchmarks.md).
 *
 * The production build's TaskSyncWorker runs in this process (Nest app from dist/, workers off so
 * that only the cycles called here run) on a temp SQLite file; the upstream simulator runs as a
 * child process (`dist/src/simulator/main.js`), so each sync makes a real HTTP poll and the
 * simulator's CPU is not counted as the worker's. Rows are inserted directly through a DataSource
 * built from dist/src/platform/database/data-source-options.js, in batches, cloned from a task the
 * gateway itself created (so every column is as the engine writes it); in-flight rows point at
 * real simulator tasks. SQL statements are counted by wrapping TypeORM's query runner.
 *
 * Measures:
 *   1. one cycle (SYNC_BATCH_SIZE due tasks) with 10,000 in-flight tasks: time and SQL statements,
 *      then the same with 100,000 finished tasks beside them;
 *   2. the due-task scan alone (the claim's SELECT) and its query plan, in both states;
 *   3. a full pass (cycles until nothing is due) over 1,000 / 5,000 / 10,000 due tasks, with the
 *      100,000 finished tasks present: total time and statements, per task.
 *
 * The poll back-off is set to an hour (SYNC_POLL_BASE_MS/MAX_MS) so that a synced task is not due
 * again within the run: each due task is synced exactly once per pass.
 *
 *   node bench/sync.js [--quick] [--stub] [--in-flight 10000] [--finished 100000] [--cycles 5] [--out FILE]
 *
 * Results go to the OS temp directory (a quick run: bench/sync-results.quick.json, git-ignored), so
 * that a run never changes a tracked file; `--out bench/sync-results.json` records a new reference run.
 *
 * --stub replaces the ax client's poll with an in-memory answer (database cost only).
 */
process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'silent';
const sql = require('./sql-counter');
const fs = require('node:fs');
const path = require('node:path');
const lib = require('./lib');

const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] !== undefined && !argv[at + 1].startsWith('--') ? argv[at + 1] : fallback;
};
const QUICK = argv.includes('--quick');
const STUB = argv.includes('--stub');
const IN_FLIGHT = Number(opt('in-flight', QUICK ? 2000 : 10_000));
const FINISHED = Number(opt('finished', QUICK ? 20_000 : 100_000));
const CYCLES = Number(opt('cycles', QUICK ? 3 : 5));
const PASSES = QUICK ? [500, 1000, 2000] : [1000, 5000, 10_000];
const OUT = path.resolve(
  opt(
    'out',
    QUICK
      ? path.join(__dirname, 'sync-results.quick.json')
      : path.join(require('node:os').tmpdir(), 'gateway-bench-sync-results.json'),
  ),
);
const ADMIN = 'bench-admin-token-0123456789abcdef';
const INSERT_BATCH = 500;

function log(message) {
  process.stderr.write(`[sync] ${message}\n`);
}

async function startSimulatorProcess() {
  const vars = {};
  const { child } = await lib.startChild('simulator', ['dist/src/simulator/main.js'], {
    env: { SIM_TASK_MS: '86400000', SIM_PORT_KL: '0', SIM_PORT_AX: '0', SIM_PORT_VD: '0' },
    ready: /^UPSTREAM_VD_API_KEY=/,
    onLine: (line) => {
      const m = /^(UPSTREAM_[A-Z_]+)=(.*)$/.exec(line);
      if (m) vars[m[1]] = m[2];
    },
  });
  return { child, vars };
}

/** Creates `count` tasks in the simulator (ax), returning their upstream IDs. */
async function createUpstreamTasks(vars, count) {
  const http = require('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const base = new URL(vars.UPSTREAM_AX_BASE_URL);
  const body = JSON.stringify({
    model: 'wx2.7-r2v',
    input: { prompt: 'Image 1 walks', media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
    parameters: { resolution: '720P', duration: 5 },
  });
  const one = () =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          agent,
          hostname: base.hostname,
          port: base.port,
          method: 'POST',
          path: '/api/v1/services/aigc/video-generation/video-synthesis',
          headers: {
            authorization: `Bearer ${vars.UPSTREAM_AX_API_KEY}`,
            'x-dashscope-async': 'enable',
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () =>
            res.statusCode === 200
              ? resolve(JSON.parse(text).output.task_id)
              : reject(new Error(`simulator create: ${res.statusCode} ${text}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const ids = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < count) {
        next++;
        ids.push(await one());
      }
    }),
  );
  agent.destroy();
  return ids;
}

async function insertRows(ds, rows) {
  const columns = Object.keys(rows[0]);
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    const batch = rows.slice(i, i + INSERT_BATCH);
    const placeholders = batch.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ');
    await ds.query(
      `INSERT INTO tasks (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${placeholders}`,
      batch.flatMap((r) => columns.map((c) => r[c])),
    );
  }
}

function cpuMs(usage) {
  return (usage.user + usage.system) / 1000;
}

const { median } = lib;

async function main() {
  require('reflect-metadata');
  const started = Date.now();
  const { dataSourceOptions } = lib.requireDist('platform/database/data-source-options.js');
  const { createGatewayApp } = lib.requireDist('app.factory.js');
  const { loadConfig } = lib.requireDist('platform/config/app-config.js');
  const { loadChannels } = lib.requireDist('upstream/channel-routing/load-channels.js');
  const { TaskSyncWorker } = lib.requireDist('core/tasks/task-sync.worker.js');
  const { UpstreamDirectory } = lib.requireDist('core/tasks/upstream-directory.js');
  const { DataSource } = require(require.resolve('typeorm', { paths: [lib.ROOT] }));

  const dir = lib.tempDir('gw-sync-bench-');
  const databaseUrl = `sqlite:${path.join(dir, 'gateway.sqlite')}`;
  const sim = await startSimulatorProcess();
  let app;
  let seed;
  /** Outcomes of the worker's polls (simulator runs only). */
  const polls = { inProgress: 0, failed: 0, other: {}, lastError: null };
  const results = {
    when: new Date().toISOString(),
    mode: QUICK ? 'quick' : 'full',
    machine: lib.machine(),
    settings: {
      inFlight: IN_FLIGHT,
      finished: FINISHED,
      cyclesMeasured: CYCLES,
      upstream: STUB ? 'stubbed poll (in-memory answer)' : 'simulator child process over HTTP',
    },
  };
  try {
    const config = loadConfig({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      ADMIN_TOKEN: ADMIN,
      WORKERS_ENABLED: 'false',
      DEFAULT_RATE_LIMIT_RPM: '100000000',
      DEFAULT_MAX_CONCURRENT_TASKS: '100000000',
      // A synced task is next due in an hour, so a pass over N due tasks syncs each exactly once.
      SYNC_POLL_BASE_MS: '3600000',
      SYNC_POLL_MAX_MS: '3600000',
      // The sync concurrencies from the environment, for runs that compare them.
      ...(process.env.SYNC_CONCURRENCY ? { SYNC_CONCURRENCY: process.env.SYNC_CONCURRENCY } : {}),
      ...(process.env.SYNC_WRITE_CONCURRENCY ? { SYNC_WRITE_CONCURRENCY: process.env.SYNC_WRITE_CONCURRENCY } : {}),
    });
    results.settings.batchSize = config.SYNC_BATCH_SIZE;
    results.settings.concurrency = config.SYNC_CONCURRENCY;
    results.settings.writeConcurrency = config.SYNC_WRITE_CONCURRENCY;
    app = await createGatewayApp({ config, channels: loadChannels(sim.vars), adminToken: ADMIN });
    await app.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${app.getHttpServer().address().port}`;
    const worker = app.get(TaskSyncWorker, { strict: false });
    const client = app.get(UpstreamDirectory, { strict: false }).client('ax');
    if (!STUB) {
      // Every poll must reach the simulator and find its task still in progress (queued or
      // running): a failed poll costs less than a real one and would flatter the figures.
      const fetch = client.fetch.bind(client);
      client.fetch = async (...args) => {
        try {
          const answer = await fetch(...args);
          if (answer.state === 'queued' || answer.state === 'running') polls.inProgress++;
          else polls.other[answer.state] = (polls.other[answer.state] || 0) + 1;
          return answer;
        } catch (error) {
          polls.failed++;
          polls.lastError = String(error && error.message);
          throw error;
        }
      };
    } else {
      client.fetch = async (_channel, _action, upstreamTaskId) => ({
        state: 'running',
        upstreamTaskId,
        nativeStatus: 'RUNNING',
        videos: [],
        voices: [],
        raw: { output: { task_id: upstreamTaskId, task_status: 'RUNNING' } },
      });
    }

    // A template row, written by the gateway itself.
    const admin = { authorization: `Bearer ${ADMIN}` };
    const account = await lib.httpJson('POST', `${url}/admin/v1/accounts`, {
      headers: admin,
      body: { name: 'sync bench', balance: 1e15 },
    });
    await lib.httpJson('PUT', `${url}/admin/v1/accounts/${account.id}/models`, {
      headers: admin,
      body: { models: [{ model: 'wx2.7-r2v' }] },
    });
    const key = (
      await lib.httpJson('POST', `${url}/admin/v1/accounts/${account.id}/keys`, { headers: admin, body: {} })
    ).key;
    const created = await lib.httpJson('POST', `${url}/ax/api/v1/services/aigc/video-generation/video-synthesis`, {
      headers: { authorization: `Bearer ${key}` },
      body: {
        model: 'wx2.7-r2v',
        input: { prompt: 'Image 1 walks', media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
        parameters: { resolution: '720P', duration: 5 },
      },
    });

    seed = new DataSource({ ...dataSourceOptions(databaseUrl, false), name: 'sync-bench-seed' });
    await seed.initialize();
    const [template] = await seed.query('SELECT * FROM tasks WHERE id = ?', [created.output.task_id]);
    const now = Date.now();
    let serial = 0;
    const rowId = (prefix) => `${prefix}_${String(++serial).padStart(10, '0')}`;

    log(`creating ${IN_FLIGHT} upstream tasks in the simulator`);
    const upstreamIds = STUB
      ? Array.from({ length: IN_FLIGHT }, (_, i) => `stub-${i}`)
      : await createUpstreamTasks(sim.vars, IN_FLIGHT);
    log(`inserting ${IN_FLIGHT} in-flight tasks`);
    let t0 = Date.now();
    const inFlight = upstreamIds.map((upstreamId, i) => ({
      ...template,
      id: rowId('task_inflight'),
      upstream_task_id: upstreamId,
      phase: 'active',
      sync_due_at: now - 60_000 + (i % 1000),
      sync_attempts: 0,
      lease_owner: null,
      lease_until: null,
      created_at: now - 120_000,
      updated_at: now - 120_000,
    }));
    await insertRows(seed, inFlight);
    results.insertInFlightMs = Date.now() - t0;

    const due = () =>
      seed.query('SELECT COUNT(*) AS n FROM tasks WHERE sync_due_at <= ?', [Date.now()]).then((r) => Number(r[0].n));
    const scanSql =
      'SELECT id FROM tasks WHERE sync_due_at <= ? AND (lease_until IS NULL OR lease_until < ?) ORDER BY sync_due_at LIMIT ?';
    const scan = async () => {
      const times = [];
      for (let i = 0; i < 20; i++) {
        const s = process.hrtime.bigint();
        await seed.query(scanSql, [Date.now(), Date.now(), config.SYNC_BATCH_SIZE]);
        times.push(Number(process.hrtime.bigint() - s) / 1e6);
      }
      const plan = (
        await seed.query(`EXPLAIN QUERY PLAN ${scanSql}`, [Date.now(), Date.now(), config.SYNC_BATCH_SIZE])
      ).map((r) => r.detail);
      return { medianMs: lib.round(median(times), 3), plan };
    };

    const cycles = async (label) => {
      const rows = [];
      for (let i = 0; i < CYCLES; i++) {
        const before = sql.snapshot();
        const s = process.hrtime.bigint();
        const synced = await worker.runCycle();
        const ms = Number(process.hrtime.bigint() - s) / 1e6;
        const d = sql.since(before);
        rows.push({ synced, ms: lib.round(ms, 1), queries: d.queries, prepares: d.prepares });
      }
      const summary = {
        label,
        totalTasks: Number((await seed.query('SELECT COUNT(*) AS n FROM tasks'))[0].n),
        dueBefore: null,
        cycles: rows,
        medianMs: lib.round(median(rows.map((r) => r.ms)), 1),
        medianQueries: median(rows.map((r) => r.queries)),
        queriesPerTask: lib.round(median(rows.map((r) => r.queries / Math.max(1, r.synced))), 2),
        msPerTask: lib.round(median(rows.map((r) => r.ms / Math.max(1, r.synced))), 3),
      };
      log(`${label}: ${summary.medianMs} ms, ${summary.medianQueries} statements per cycle of ${rows[0].synced}`);
      return summary;
    };

    // Warm-up (JIT, statement cache, keep-alive sockets): one cycle, not counted.
    await worker.runCycle();

    // 1 + 2: cycles and the scan, before and after the finished tasks arrive.
    results.scanWithoutFinished = await scan();
    const dueA = await due();
    results.cycleWithoutFinished = await cycles(`${IN_FLIGHT} in flight, 0 finished`);
    results.cycleWithoutFinished.dueBefore = dueA;

    log(`inserting ${FINISHED} finished tasks`);
    t0 = Date.now();
    const finishedRows = [];
    for (let i = 0; i < FINISHED; i++) {
      finishedRows.push({
        ...template,
        id: rowId('task_done'),
        upstream_task_id: `done-${i}`,
        phase: 'succeeded',
        native_status: 'SUCCEEDED',
        outer_status: 'SUCCESS',
        progress: 100,
        billing_state: 'settled',
        final_charge: template.estimated_charge,
        sync_due_at: null,
        lease_owner: null,
        lease_until: null,
        created_at: now - 86_400_000 + i,
        updated_at: now - 86_400_000 + i,
        finished_at: now - 86_000_000 + i,
      });
      if (finishedRows.length === 10_000) await insertRows(seed, finishedRows.splice(0));
    }
    if (finishedRows.length) await insertRows(seed, finishedRows.splice(0));
    results.insertFinishedMs = Date.now() - t0;
    await seed.query('ANALYZE');

    results.scanWithFinished = await scan();
    const dueB = await due();
    results.cycleWithFinished = await cycles(`${IN_FLIGHT} in flight, ${FINISHED} finished`);
    results.cycleWithFinished.dueBefore = dueB;

    // 3: full passes over N due tasks (the rest pushed into the future), finished tasks present.
    results.passes = [];
    const inFlightIds = inFlight.map((r) => r.id);
    for (const n of PASSES.filter((p) => p <= IN_FLIGHT)) {
      await seed.query(
        'UPDATE tasks SET sync_due_at = ?, lease_owner = NULL, lease_until = NULL WHERE sync_due_at IS NOT NULL',
        [Date.now() + 3_600_000],
      );
      for (let i = 0; i < n; i += 500) {
        const ids = inFlightIds.slice(i, Math.min(n, i + 500));
        await seed.query(`UPDATE tasks SET sync_due_at = ? WHERE id IN (${ids.map(() => '?').join(', ')})`, [
          Date.now() - 1000,
          ...ids,
        ]);
      }
      const before = sql.snapshot();
      const cpuBefore = process.cpuUsage();
      const s = process.hrtime.bigint();
      let synced = 0;
      let cycleCount = 0;
      for (;;) {
        const k = await worker.runCycle();
        if (k === 0) break;
        synced += k;
        cycleCount++;
      }
      const ms = Number(process.hrtime.bigint() - s) / 1e6;
      const d = sql.since(before);
      const pass = {
        due: n,
        synced,
        cycles: cycleCount,
        ms: lib.round(ms, 0),
        queries: d.queries,
        msPerTask: lib.round(ms / synced, 3),
        // This process's CPU, all threads (the worker, its database work, its HTTP client, the WAL checkpointer); the
        // simulator is a child process.
        cpuMsPerTask: lib.round(cpuMs(process.cpuUsage(cpuBefore)) / synced, 3),
        queriesPerTask: lib.round(d.queries / synced, 2),
      };
      results.passes.push(pass);
      log(`full pass over ${n} due: ${pass.ms} ms, ${pass.queries} statements, ${pass.cycles} cycles`);
    }
  } finally {
    if (seed && seed.isInitialized) await seed.destroy();
    if (app) await app.close();
    await lib.stopChild(sim.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const a = results.cycleWithoutFinished;
  const b = results.cycleWithFinished;
  const passes = results.passes;
  const perTask = passes.map((p) => p.msPerTask);
  const synced =
    [a, b].reduce((n, x) => n + x.cycles.reduce((m, c) => m + c.synced, 0), 0) +
    passes.reduce((n, p) => n + p.synced, 0);
  results.polls = { ...polls, measuredSyncs: synced };
  results.verdict = {
    pollsAnswered: {
      // Every measured sync (and the warm-up cycle's) polled the simulator and found its task in progress.
      polls: STUB ? null : polls.inProgress,
      failed: STUB ? null : polls.failed + Object.values(polls.other).reduce((n, k) => n + k, 0),
      met: STUB || (polls.failed === 0 && Object.keys(polls.other).length === 0 && polls.inProgress >= synced),
    },
    flatInFinished: {
      cycleMs: [a.medianMs, b.medianMs],
      statements: [a.medianQueries, b.medianQueries],
      scanMs: [results.scanWithoutFinished.medianMs, results.scanWithFinished.medianMs],
      // Flat: the same statements per task, and the time within 25% (+2 ms of timer noise). Per
      // task, not per cycle: syncs that end in the same turn of the event loop share one group
      // commit (a BEGIN and a COMMIT for all of them), so a cycle's count moves by a few.
      met: Math.abs(b.queriesPerTask - a.queriesPerTask) <= 0.1 && b.medianMs <= a.medianMs * 1.25 + 2,
    },
    linearInInFlight: {
      msPerTask: perTask,
      cpuMsPerTask: passes.map((p) => p.cpuMsPerTask),
      statementsPerTask: passes.map((p) => p.queriesPerTask),
      // Linear (or better): a larger pass costs no more than 50% more per task than the smallest
      // (time), and its statements per task stay within 0.1 (group commit, as above), across a 10x
      // range of due tasks. One-sided: in every run the smallest pass reads the highest per task
      // (see docs/benchmarks.md, "Sync worker"), which is not growth.
      met:
        passes.length > 1 &&
        Math.max(...perTask.slice(1)) <= perTask[0] * 1.5 &&
        Math.max(...passes.map((p) => p.queriesPerTask)) - Math.min(...passes.map((p) => p.queriesPerTask)) <= 0.1,
    },
  };
  results.elapsedSeconds = Math.round((Date.now() - started) / 1000);
  fs.writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(
    `\n${report(results)}\n\nwritten: ${OUT.startsWith(process.cwd()) ? path.relative(process.cwd(), OUT) : OUT} (${results.elapsedSeconds} s)\n`,
  );
}

function report(r) {
  const m = r.machine;
  const lines = [
    `Machine: ${m.cpu}, ${m.cores} cores, Node ${m.node}; ${r.mode} mode, ${r.when}; upstream: ${r.settings.upstream}; batch ${r.settings.batchSize}, concurrency ${r.settings.concurrency}.`,
    '',
  ];
  const c = (x) => [
    x.label,
    String(x.dueBefore),
    `${x.medianMs}`,
    `${x.medianQueries}`,
    `${x.msPerTask}`,
    `${x.queriesPerTask}`,
  ];
  lines.push(
    lib.markdownTable(
      [
        'one sync cycle',
        'due before',
        'ms / cycle (median)',
        'SQL statements / cycle',
        'ms / task',
        'statements / task',
      ],
      [c(r.cycleWithoutFinished), c(r.cycleWithFinished)],
    ),
  );
  lines.push('');
  lines.push(
    lib.markdownTable(
      ['due-task scan (claim SELECT, LIMIT batch)', 'median ms', 'query plan'],
      [
        [
          `${r.settings.inFlight} in flight, 0 finished`,
          String(r.scanWithoutFinished.medianMs),
          r.scanWithoutFinished.plan.join('; '),
        ],
        [
          `${r.settings.inFlight} in flight, ${r.settings.finished} finished`,
          String(r.scanWithFinished.medianMs),
          r.scanWithFinished.plan.join('; '),
        ],
      ],
    ),
  );
  lines.push('');
  lines.push(
    lib.markdownTable(
      [
        `full pass (${r.settings.finished} finished beside)`,
        'synced',
        'cycles',
        'total ms',
        'SQL statements',
        'ms / task',
        'CPU ms / task',
        'statements / task',
      ],
      r.passes.map((p) => [
        `${p.due} due`,
        String(p.synced),
        String(p.cycles),
        String(p.ms),
        String(p.queries),
        String(p.msPerTask),
        String(p.cpuMsPerTask),
        String(p.queriesPerTask),
      ]),
    ),
  );
  lines.push('');
  const v = r.verdict;
  lines.push(
    lib.markdownTable(
      ['target', 'measured', 'met'],
      [
        [
          'every poll answered (task in progress upstream)',
          v.pollsAnswered.polls === null
            ? 'stubbed polls'
            : `${v.pollsAnswered.polls} in progress, ${v.pollsAnswered.failed} failed or other, for ${r.polls.measuredSyncs} measured syncs`,
          v.pollsAnswered.met ? 'yes' : '**no**',
        ],
        [
          'cycle cost flat in finished tasks',
          `${v.flatInFinished.cycleMs.join(' -> ')} ms, ${v.flatInFinished.statements.join(' -> ')} statements per cycle (${r.cycleWithoutFinished.queriesPerTask} -> ${r.cycleWithFinished.queriesPerTask} per task); scan ${v.flatInFinished.scanMs.join(' -> ')} ms`,
          v.flatInFinished.met ? 'yes' : '**no**',
        ],
        [
          'cost linear in in-flight tasks',
          `${v.linearInInFlight.msPerTask.join(' / ')} ms per task (${v.linearInInFlight.cpuMsPerTask.join(' / ')} CPU ms), ${v.linearInInFlight.statementsPerTask.join(' / ')} statements per task`,
          v.linearInInFlight.met ? 'yes' : '**no**',
        ],
      ],
    ),
  );
  return lines.join('\n');
}

main().catch((error) => {
  process.stderr.write(`sync bench failed: ${error.stack || error}\n`);
  process.exit(1);
});
