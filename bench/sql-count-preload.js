'use strict';
/**
 * A gateway preload (`node --require ./bench/sql-count-preload.js`): counts the SQL statements the
 * process sends (bench/sql-counter.js) and appends the running totals as a JSON line to
 * BENCH_SQL_COUNT_FILE at each SIGWINCH (a mark the benchmark asks for; the gateway's shutdown hooks take
 * SIGUSR2 and the other usual signals, Node's inspector SIGUSR1) and at exit.
 */
const fs = require('node:fs');
const counter = require('./sql-counter');

const file = process.env.BENCH_SQL_COUNT_FILE;
if (!file) throw new Error('sql-count-preload: BENCH_SQL_COUNT_FILE is not set');

const write = (mark) => fs.appendFileSync(file, `${JSON.stringify({ mark, at: Date.now(), ...counter.snapshot() })}\n`);
process.on('SIGWINCH', () => write('mark'));
process.once('exit', () => write('exit'));
