'use strict';
/** Shared helpers of the benchmarks: child processes, admin calls, RSS, machine facts, stats, tables. */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist', 'src');

function requireDist(relative) {
  const file = path.join(DIST, relative);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first (npm run bench does).`);
  return require(file);
}

/**
 * The node flags `npm start` gives the gateway (package.json's start script, e.g. its heap growth
 * step), so that every benchmark starts it as an operator does.
 */
const START_FLAGS = require('../package.json')
  .scripts.start.split(/\s+/)
  .filter((arg) => arg.startsWith('--'));

/** Starts `node <args>` and resolves once a stdout line matches `ready`; rejects if it exits first or times out. */
function startChild(name, args, { env, ready, timeoutMs = 30_000, onLine } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let settled = false;
    let stdoutBuffer = '';
    const stderrTail = [];
    const timer = setTimeout(() => fail(new Error(`${name} did not become ready within ${timeoutMs} ms`)), timeoutMs);
    function fail(error) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${stderrTail.join('')}`));
    }
    child.stdout.on('data', (chunk) => {
      stdoutBuffer += chunk.toString();
      let newline;
      while ((newline = stdoutBuffer.indexOf('\n')) >= 0) {
        const line = stdoutBuffer.slice(0, newline);
        stdoutBuffer = stdoutBuffer.slice(newline + 1);
        if (onLine) onLine(line);
        const match = !settled && ready.exec(line);
        if (match) {
          settled = true;
          clearTimeout(timer);
          resolve({ child, match });
        }
      }
      // Keep only the tail of a chatty process (the gateway's access log at info).
      if (stdoutBuffer.length > 1 << 20) stdoutBuffer = stdoutBuffer.slice(-4096);
    });
    child.stderr.on('data', (chunk) => {
      stderrTail.push(chunk.toString());
      if (stderrTail.length > 50) stderrTail.shift();
    });
    child.once('exit', (code, signal) => fail(new Error(`${name} exited early (code ${code}, signal ${signal})`)));
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the child is gone. Only ever our own child, by its pid. */
function stopChild(child, graceMs = 5000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** `VmHWM` (peak resident set) and `VmRSS` of a process, in MB, from /proc (Linux). */
function procMemory(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number((new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status) || [])[1]);
    return { hwmMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
  } catch {
    return { hwmMb: NaN, rssMb: NaN };
  }
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of /proc/<pid>/stat (11 and 12 after the command name), in clock ticks
    // (100/s).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * How long a quiet process is watched for its idle CPU. /proc counts CPU in ticks of 10 ms, so one
 * second read 10, 30 or 50 ms/s for the same build: over a 36 s run of 1,500 tasks that moved the
 * idle-subtracted figure by up to 1 ms a task. Five seconds put the tick at 2 ms/s.
 */
const IDLE_SAMPLE_MS = 5000;

/** A process's CPU per ms of wall time while nothing is sent to it (`IDLE_SAMPLE_MS`). */
async function idleCpuPerMs(pid, sampleMs = IDLE_SAMPLE_MS) {
  const t0 = Date.now();
  const cpu0 = cpuMs(pid);
  await sleep(sampleMs);
  return (cpuMs(pid) - cpu0) / (Date.now() - t0);
}

/** Polls a process's RSS; `peakMb` is the larger of the polled maximum and the kernel's VmHWM. */
function rssSampler(pid, everyMs = 200) {
  let polledPeak = 0;
  const samples = [];
  const started = Date.now();
  const timer = setInterval(() => {
    const { rssMb } = procMemory(pid);
    if (Number.isFinite(rssMb)) {
      polledPeak = Math.max(polledPeak, rssMb);
      samples.push([Date.now() - started, Math.round(rssMb * 10) / 10]);
    }
  }, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      const { hwmMb, rssMb } = procMemory(pid);
      return {
        peakMb: Math.max(polledPeak, Number.isFinite(hwmMb) ? hwmMb : 0),
        vmHwmMb: hwmMb,
        polledPeakMb: polledPeak,
        lastRssMb: rssMb,
        samples,
      };
    },
  };
}

async function httpJson(method, url, { headers = {}, body } = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  if (!res.ok) throw new Error(`${method} ${url} -> ${res.status}: ${text.slice(0, 300)}`);
  return json;
}

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0] ? cpus[0].model.trim() : 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** Percentile (nearest rank) of an unsorted array of numbers. */
function percentiles(values, ps = [50, 90, 99]) {
  const sorted = Float64Array.from(values).sort();
  const out = {};
  for (const p of ps) {
    out[`p${p}`] = sorted.length
      ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
      : NaN;
  }
  out.mean = sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : NaN;
  out.max = sorted.length ? sorted[sorted.length - 1] : NaN;
  return out;
}

/**
 * The median of the finite numbers given (null when there are none); with an even count, the mean of the
 * middle two, so that 4 rounds are not read from their lower or upper middle alone.
 */
function median(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function round(value, digits = 2) {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** A number with `digits` decimals for a table; anything else as it is (`null`, `NaN`). */
function fmt(value, digits = 2) {
  return Number.isFinite(value) ? value.toFixed(digits) : String(value);
}

/** `--name value`, `--name=value` and bare `--flag` (true) into an object. */
function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) continue;
    if (m[2] !== undefined) out[m[1]] = m[2];
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) out[m[1]] = argv[++i];
    else out[m[1]] = true;
  }
  return out;
}

function markdownTable(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A TCP port free on loopback right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The variants of round `round` (1-based), each round starting one further along the list: the process that runs
 * later in a round pays for what the earlier ones left behind (the bench process's own heap, the disk's writeback),
 * so each variant takes each place in turn and a number of rounds that is a multiple of the variants balances it.
 */
function inTurn(variants, round) {
  return variants.map((_, i) => variants[(i + round - 1) % variants.length]);
}

function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

module.exports = {
  ROOT,
  DIST,
  START_FLAGS,
  requireDist,
  startChild,
  stopChild,
  procMemory,
  cpuMs,
  IDLE_SAMPLE_MS,
  idleCpuPerMs,
  rssSampler,
  httpJson,
  machine,
  percentiles,
  median,
  round,
  fmt,
  parseArgs,
  markdownTable,
  sleep,
  freePort,
  tempDir,
  inTurn,
};

/**
 * Open-loop load at a fixed rate: request i is sent at start + i / rate, whatever happened to the
 * earlier ones (no burst at the start of each second, no waiting for answers), over a keep-alive
 * pool. Latency is measured from the scheduled send time, so a stalled server cannot hide
 * queueing (no coordinated omission).
 */
function paced({ url, rate, seconds, request, headers = {}, timeline = null }) {
  const http = require('node:http');
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.round(rate * seconds);
  const latencies = [];
  const statuses = {};
  let errors = 0;
  let sent = 0;
  let done = 0;
  const start = performance.now() + 20;
  return new Promise((resolve) => {
    const finish = () => {
      agent.destroy();
      resolve({ requests: total, ok: statuses[200] || 0, errors, statuses, latencies, seconds });
    };
    const fire = (scheduledAt) => {
      const { method, path, body } = request();
      const req = http.request(
        {
          agent,
          hostname: target.hostname,
          port: target.port,
          method,
          path,
          headers: { ...headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - scheduledAt);
            if (timeline) timeline.push([scheduledAt - start, performance.now() - scheduledAt]);
            statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1;
            if (++done === total) finish();
          });
        },
      );
      req.on('error', () => {
        errors++;
        if (++done === total) finish();
      });
      req.end(body);
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + (sent * 1000) / rate <= now) fire(start + (sent++ * 1000) / rate);
      if (sent < total) setTimeout(tick, Math.max(0, start + (sent * 1000) / rate - performance.now()));
    };
    setTimeout(tick, 20);
  });
}

module.exports.paced = paced;
