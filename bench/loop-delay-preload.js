'use strict';
/**
 * A gateway preload (`node --require ./bench/loop-delay-preload.js`): how long the event loop was held,
 * from `perf_hooks.monitorEventLoopDelay` at 1 ms resolution. At each SIGWINCH (the benchmark's mark, the
 * signal `sql-count-preload.js` takes) and at exit, appends the delays since the mark before as a JSON
 * line to BENCH_LOOP_DELAY_FILE (ms), then starts afresh; so the line of a mark covers the interval it ends.
 */
const fs = require('node:fs');
const { monitorEventLoopDelay } = require('node:perf_hooks');

const file = process.env.BENCH_LOOP_DELAY_FILE;
if (!file) throw new Error('loop-delay-preload: BENCH_LOOP_DELAY_FILE is not set');

const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
const ms = (ns) => Math.round(ns / 1e4) / 100;

function write(mark) {
  const line = {
    mark,
    at: Date.now(),
    samples: histogram.count,
    p50: ms(histogram.percentile(50)),
    p99: ms(histogram.percentile(99)),
    p999: ms(histogram.percentile(99.9)),
    max: ms(histogram.max),
  };
  histogram.reset();
  fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
}
process.on('SIGWINCH', () => write('mark'));
process.once('exit', () => write('exit'));
