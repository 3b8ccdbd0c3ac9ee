'use strict';
/**
 * Serving a kept result (`npm run bench:results`; see docs/benchmarks.md, "Kept results"): one 50 MB
 * video kept by the gateway (RESULT_STORE=fs) is fetched by 20 concurrent clients, against a bare
 * Node server streaming the same file with `fs.createReadStream`, in the same run. Target:
 * gateway throughput at least 80% of the bare server's, and the gateway's RSS flat (files are
 * streamed, never held in memory).
 *
 * Options: --connections N (20), --duration S (10; --quick 4), --rounds N (3; --quick 1), --size-mb N (50),
 * --out FILE (bench/results-serving.json).
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const lib = require('./lib');

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(arg);
    return m ? [m[1], m[2] ?? true] : [arg, true];
  }),
);
const QUICK = args.quick === true;
const CONNECTIONS = Number(args.connections ?? 20);
const DURATION_S = Number(args.duration ?? (QUICK ? 4 : 10));
const ROUNDS = Number(args.rounds ?? (QUICK ? 1 : 3));
const SIZE = Number(args['size-mb'] ?? 50) * 1024 * 1024;
const OUT = path.resolve(
  args.out ?? path.join(__dirname, QUICK ? 'results-serving.quick.json' : 'results-serving.json'),
);
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const TARGET_RATIO = 0.8;

/** The bare server: what `fs.createReadStream` piped to the socket does, nothing more. */
const BARE_SERVER = `
const fs = require('node:fs');
const http = require('node:http');
const file = process.argv[1];
const size = fs.statSync(file).size;
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': size });
  fs.createReadStream(file).pipe(res);
});
server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
`;

async function main() {
  const dir = lib.tempDir('gw-bench-results-');
  const cleanups = [];
  try {
    // The upstream's copy: a 50 MB file served like a CDN, made once on disk.
    const source = path.join(dir, 'upstream.mp4');
    writePattern(source, SIZE);
    const cdn = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': SIZE });
      fs.createReadStream(source).pipe(res);
    });
    await new Promise((r) => cdn.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => cdn.close(r)));

    const { startSimulator } = lib.requireDist('simulator/simulator.js');
    const sim = await startSimulator({ taskMs: 3_600_000 });
    cleanups.push(() => sim.close());
    const gateway = await startGateway(sim, dir);
    cleanups.push(() => lib.stopChild(gateway.child, 15_000));

    // One finished task whose video is the 50 MB file, kept by the gateway.
    const created = await lib.httpJson(
      'POST',
      `${gateway.url}/ax/api/v1/services/aigc/video-generation/video-synthesis`,
      {
        headers: { authorization: `Bearer ${gateway.apiKey}` },
        body: {
          model: 'wx2.7-r2v',
          input: { prompt: 'Image 1 walks', media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
        },
      },
    );
    const taskId = created.output.task_id;
    const upstreamId = await upstreamTaskId(path.join(dir, 'gateway.sqlite'), taskId);
    sim.forceState('ax', upstreamId, {
      output: { task_status: 'SUCCEEDED', video_url: `http://127.0.0.1:${cdn.address().port}/big.mp4` },
    });
    const videoUrl = await until(async () => {
      const q = await lib.httpJson('GET', `${gateway.url}/ax/api/v1/tasks/${taskId}`, {
        headers: { authorization: `Bearer ${gateway.apiKey}` },
      });
      return q.output.task_status === 'SUCCEEDED' ? q.output.video_url : null;
    });
    await until(async () => {
      const view = await lib.httpJson('GET', `${gateway.url}/admin/v1/tasks/${taskId}/results`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      return view.files[0]?.status === 'stored';
    }, 120_000);
    const kept = path.join(dir, 'results', taskId, 'v0');
    log(`kept ${(fs.statSync(kept).size / 1048576).toFixed(0)} MB as ${kept}`);

    const bare = await lib.startChild('bare server', ['-e', BARE_SERVER, kept], { ready: /^listening (\d+)/ });
    cleanups.push(() => lib.stopChild(bare.child));
    const targets = {
      bare: { url: `http://127.0.0.1:${bare.match[1]}/file`, pid: bare.child.pid },
      gateway: { url: `${gateway.url}${new URL(videoUrl).pathname}`, pid: gateway.child.pid },
    };

    const rounds = [];
    const rssBefore = lib.procMemory(gateway.child.pid).rssMb;
    const sampler = lib.rssSampler(gateway.child.pid);
    for (let round = 1; round <= ROUNDS; round++) {
      const row = { round };
      for (const name of ['bare', 'gateway']) {
        const run = await download(targets[name].url, CONNECTIONS, DURATION_S);
        row[name] = {
          mbPerSecond: lib.round(run.bytes / 1048576 / run.seconds, 1),
          filesPerSecond: lib.round(run.files / run.seconds, 2),
          p99Ms: lib.percentiles(run.fileMs, [99]).p99,
          errors: run.errors,
        };
        log(
          `round ${round} ${name}: ${row[name].mbPerSecond} MB/s, ${row[name].filesPerSecond} files/s, p99 ${row[name].p99Ms} ms`,
        );
      }
      row.ratio = lib.round(row.gateway.mbPerSecond / row.bare.mbPerSecond, 3);
      rounds.push(row);
    }
    const rss = sampler.stop();
    const medianRatio = lib.median(rounds.map((r) => r.ratio));
    const results = {
      when: new Date().toISOString(),
      machine: lib.machine(),
      settings: { connections: CONNECTIONS, durationSeconds: DURATION_S, rounds: ROUNDS, fileBytes: SIZE },
      rounds,
      medianRatio,
      targetRatio: TARGET_RATIO,
      ratioMet: medianRatio >= TARGET_RATIO,
      gatewayRss: {
        beforeMb: lib.round(rssBefore, 1),
        peakMb: lib.round(rss.polledPeakMb, 1),
        afterMb: lib.round(rss.lastRssMb, 1),
        // The peak over the idle RSS: with streaming, a few socket buffers per client, never a file.
        growthMb: lib.round(rss.polledPeakMb - rssBefore, 1),
      },
    };
    fs.writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
    log(
      `median ratio gateway/bare ${medianRatio} (target >= ${TARGET_RATIO}: ${results.ratioMet ? 'met' : 'NOT met'}); ` +
        `gateway RSS ${results.gatewayRss.beforeMb} MB idle, ${results.gatewayRss.peakMb} MB peak under load ` +
        `(${CONNECTIONS} clients x ${SIZE / 1048576} MB); written to ${path.relative(lib.ROOT, OUT)}`,
    );
  } finally {
    while (cleanups.length)
      await cleanups
        .pop()()
        .catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `connections` clients each fetching the file again and again for `seconds`, reading and dropping
 * the bytes as they come (autocannon is made for small answers: it reports nothing for 50 MB
 * bodies). Bytes count as they arrive, so a file cut off at the end still counts what it delivered.
 */
function download(url, connections, seconds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = Date.now() + seconds * 1000;
  const started = Date.now();
  const totals = { bytes: 0, files: 0, errors: 0, fileMs: [] };
  const client = () =>
    new Promise((resolve) => {
      const next = () => {
        if (Date.now() >= deadline) return resolve();
        const t0 = Date.now();
        let finished = false;
        // Once per request, however it ends (whole, cut at the deadline, or failed).
        const finish = (whole, failed) => {
          if (finished) return;
          finished = true;
          if (whole) {
            totals.files++;
            totals.fileMs.push(Date.now() - t0);
          } else if (failed && Date.now() < deadline) totals.errors++;
          next();
        };
        const req = http.get(url, { agent }, (res) => {
          if (res.statusCode !== 200) totals.errors++;
          res.on('data', (chunk) => {
            totals.bytes += chunk.length;
            if (Date.now() >= deadline) req.destroy();
          });
          res.on('end', () => finish(true, false));
          res.on('close', () => finish(false, false));
        });
        req.on('error', () => finish(false, true));
      };
      next();
    });
  return Promise.all(Array.from({ length: connections }, client)).then(() => {
    agent.destroy();
    return { ...totals, seconds: (Date.now() - started) / 1000 };
  });
}

/** `size` patterned bytes, written 1 MB at a time. */
function writePattern(file, size) {
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < block.length; i++) block[i] = (i * 31 + 7) & 0xff;
  for (let written = 0; written < size; written += block.length)
    fs.writeSync(fd, block, 0, Math.min(block.length, size - written));
  fs.closeSync(fd);
}

async function startGateway(sim, dir) {
  const port = await freePort();
  const { child } = await lib.startChild('gateway', [...lib.START_FLAGS, path.join(lib.DIST, 'main.js')], {
    env: {
      PORT: String(port),
      DATABASE_URL: `sqlite:${path.join(dir, 'gateway.sqlite')}`,
      ADMIN_TOKEN,
      DEMO_SEED: 'false',
      LOG_LEVEL: 'warn',
      RESULT_STORE: 'fs',
      RESULT_STORE_DIR: path.join(dir, 'results'),
      SYNC_POLL_BASE_MS: '100',
      SYNC_POLL_MAX_MS: '200',
      NODE_ENV: 'production',
      ...lib.requireDist('simulator/upstream-env.js').simulatorUpstreamEnv(sim),
    },
    ready: /Gateway listening on/,
    timeoutMs: 60_000,
  });
  const url = `http://127.0.0.1:${port}`;
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const account = await lib.httpJson('POST', `${url}/admin/v1/accounts`, {
    headers: admin,
    body: { name: 'bench', balance: 1_000_000_000 },
  });
  await lib.httpJson('PUT', `${url}/admin/v1/accounts/${account.id}/models`, {
    headers: admin,
    body: { models: [{ model: 'wx2.7-r2v' }] },
  });
  const key = await lib.httpJson('POST', `${url}/admin/v1/accounts/${account.id}/keys`, {
    headers: admin,
    body: { name: 'bench' },
  });
  log(`gateway up on ${url} (pid ${child.pid})`);
  return { child, url, apiKey: key.key };
}

/** The simulator's task ID for a gateway task, read from the gateway's database as an operator would. */
async function upstreamTaskId(databaseFile, taskId) {
  const Database = require('better-sqlite3');
  return until(() => {
    const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
    try {
      return db.prepare('SELECT upstream_task_id FROM tasks WHERE id = ?').get(taskId)?.upstream_task_id ?? null;
    } finally {
      db.close();
    }
  });
}

async function until(check, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await lib.sleep(100);
  }
}

function freePort() {
  return new Promise((resolve) => {
    const server = require('node:net').createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function log(message) {
  process.stdout.write(`[bench:results] ${message}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
