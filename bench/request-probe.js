'use strict';
/**
 * A preload for the gateway process that records what stalls its event loop during a benchmark:
 * each HTTP request's server time, every V8 collection, and every SQLite statement or pragma on
 * the main thread that took at least 0.3 ms. Written as JSON when the process ends, to
 * `$PROBE_DIR/probe-<pid>.json` (default: the system's temporary directory).
 *
 *   node bench/run.js --paced-rounds 3 --no-rss --only c-create --node-args="--require ./bench/request-probe.js"
 *   node bench/probe-summary.js /tmp/probe-<pid>.json
 *
 * It adds a few µs per request and per statement: compare runs that all have it, never a run
 * with it against one without.
 */
const { isMainThread } = require('node:worker_threads');

if (isMainThread) {
  const fs = require('node:fs');
  const http = require('node:http');
  const os = require('node:os');
  const path = require('node:path');
  const { createRequire } = require('node:module');
  const { PerformanceObserver, performance } = require('node:perf_hooks');

  const SLOW_STATEMENT_MS = 0.3;
  const now = () => performance.timeOrigin + performance.now();
  /** [arrival epoch ms, server ms] */
  const requests = [];
  /** [start epoch ms, ms, kind] */
  const collections = [];
  /** [start epoch ms, ms, text] */
  const statements = [];

  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      collections.push([performance.timeOrigin + e.startTime, e.duration, e.detail ? e.detail.kind : e.kind]);
  }).observe({ entryTypes: ['gc'] });

  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, req, res) {
    if (event === 'request') {
      const arrived = now();
      res.once('finish', () => requests.push([arrived, now() - arrived]));
    }
    return emit.apply(this, arguments);
  };

  const timed = (label, run) =>
    function () {
      const start = now();
      try {
        return run.apply(this, arguments);
      } finally {
        const ms = now() - start;
        if (ms >= SLOW_STATEMENT_MS) statements.push([start, ms, label]);
      }
    };
  try {
    const Database = createRequire(path.join(process.cwd(), 'package.json'))('better-sqlite3');
    const { prepare, pragma } = Database.prototype;
    Database.prototype.pragma = function (text) {
      return timed(`pragma ${String(text).slice(0, 60)}`, pragma).apply(this, arguments);
    };
    Database.prototype.prepare = function (text) {
      const statement = prepare.apply(this, arguments);
      for (const method of ['run', 'get', 'all']) {
        const original = statement[method];
        statement[method] = timed(`${method} ${String(text).slice(0, 60)}`, original.bind(statement));
      }
      return statement;
    };
  } catch {
    /* no SQLite in this process */
  }

  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    const file = path.join(process.env.PROBE_DIR || os.tmpdir(), `probe-${process.pid}.json`);
    fs.writeFileSync(file, JSON.stringify({ requests, collections, statements }));
  };
  process.once('exit', write);
  for (const signal of ['SIGTERM', 'SIGINT']) process.prependListener(signal, write);
}
