'use strict';
/**
 * Reads a file written by bench/request-probe.js and prints, for each paced phase of the run (a
 * stretch of at least 1,500 requests arriving at no more than 260/s), the gateway's server time
 * (p50, p99) and what stalled it: collections, slow SQLite statements and the main thread's WAL
 * checkpoints, with how many requests each touched. A request counts as touched by a stall that
 * overlaps it or ends less than 1.5 ms before it arrives (it waited in the socket meanwhile).
 * A phase is told apart by the pause before it: in `bench/run.js` that is each alternated paced
 * round after the first (the first follows the throughput phase at once), so use `--paced-rounds 3`.
 *
 *   node bench/probe-summary.js /tmp/probe-<pid>.json
 */
const fs = require('node:fs');

const file = process.argv[2];
if (!file) {
  console.error('usage: node bench/probe-summary.js PROBE_FILE');
  process.exit(2);
}
const { requests, collections, statements } = JSON.parse(fs.readFileSync(file, 'utf8'));
const WAITED_MS = 1.5;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};
const touches = (stalls, [arrived, ms]) =>
  stalls.some(([start, duration]) => start < arrived + ms && start + duration > arrived - WAITED_MS);

requests.sort((a, b) => a[0] - b[0]);
const phases = [];
let phase = [];
for (const request of requests) {
  if (phase.length && request[0] - phase[phase.length - 1][0] > 200) {
    phases.push(phase);
    phase = [];
  }
  phase.push(request);
}
if (phase.length) phases.push(phase);

const fmt = (n) => n.toFixed(2);
for (const p of phases) {
  const from = p[0][0];
  const to = p[p.length - 1][0] + p[p.length - 1][1];
  const rate = p.length / ((p[p.length - 1][0] - from) / 1000);
  if (p.length < 1500 || rate > 260) continue;
  const within = (list) => list.filter(([start]) => start >= from - 50 && start <= to);
  const gc = within(collections);
  const slow = within(statements).filter(([, , text]) => !text.startsWith('pragma wal_checkpoint'));
  const checkpoints = within(statements).filter(([, , text]) => text.startsWith('pragma wal_checkpoint'));
  const times = p.map(([, ms]) => ms);
  const p99 = percentile(times, 0.99);
  const tail = p.filter(([, ms]) => ms >= p99);
  const line = (name, stalls) =>
    `${name} ${stalls.length} (mean ${stalls.length ? fmt(stalls.reduce((s, x) => s + x[1], 0) / stalls.length) : '-'} ms, max ${stalls.length ? fmt(Math.max(...stalls.map((x) => x[1]))) : '-'}): touched ${p.filter((r) => touches(stalls, r)).length} requests, ${tail.filter((r) => touches(stalls, r)).length} of the ${tail.length} slowest`;
  console.log(
    `${p.length} requests at ${Math.round(rate)}/s: server p50 ${fmt(percentile(times, 0.5))} ms, p99 ${fmt(p99)} ms`,
  );
  console.log(`  ${line('collections', gc)}`);
  console.log(`  ${line('slow statements', slow)}`);
  console.log(`  ${line('main-thread WAL checkpoints', checkpoints)}`);
}
