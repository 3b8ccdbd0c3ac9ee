'use strict';
/**
 * PostgreSQL's own floor under a create's added latency: what a create's two round trips cost with
 * no gateway at all. A node-postgres pool sends, at a paced rate, pairs of statements one after the
 * other, as a create does (its opening statement, then the acceptance), each autocommitted:
 *
 * - `write`: an INSERT of a ~0.5 KB row, then an UPDATE of it (each commit waits for its WAL flush);
 * - `select`: two `SELECT 1` (round trips alone, nothing to flush).
 *
 * Latency is measured from each pair's scheduled time (no coordinated omission). A gateway create
 * on PostgreSQL cannot add less than the `write` figures to the forwarder's latency.
 *
 *   node bench/pg-floor.js --pg postgres://…/db [--rate 200] [--pairs 2000] [--rounds 2]
 *
 * Uses (and drops) a table `pg_floor_probe` in that database.
 */
const lib = require('./lib');
const { Pool } = require(require.resolve('pg', { paths: [lib.ROOT] }));

const argv = process.argv.slice(2);
const arg = (name, fallback) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : fallback);
const URL_ = arg('pg', null);
const RATE = Number(arg('rate', 200));
const PAIRS = Number(arg('pairs', 2000));
const ROUNDS = Number(arg('rounds', 2));

async function run(pool, mode) {
  const latencies = [];
  const gap = 1000 / RATE;
  const start = performance.now() + 50;
  const pair = async (k) => {
    if (mode === 'write') {
      await pool.query({
        name: 'floor_ins',
        text: 'INSERT INTO pg_floor_probe (id, n, body) VALUES ($1, $2, $3)',
        values: [`${mode}-${k}`, k, 'x'.repeat(500)],
      });
      await pool.query({
        name: 'floor_upd',
        text: 'UPDATE pg_floor_probe SET n = n + 1 WHERE id = $1',
        values: [`${mode}-${k}`],
      });
    } else {
      await pool.query({ name: 'floor_sel', text: 'SELECT 1', values: [] });
      await pool.query({ name: 'floor_sel', text: 'SELECT 1', values: [] });
    }
  };
  await new Promise((resolve, reject) => {
    let sent = 0;
    let done = 0;
    const tick = () => {
      const now = performance.now();
      while (sent < PAIRS && start + sent * gap <= now) {
        const scheduled = start + sent * gap;
        pair(sent++).then(() => {
          latencies.push(performance.now() - scheduled);
          if (++done === PAIRS) resolve();
        }, reject);
      }
      if (sent < PAIRS) setTimeout(tick, Math.max(0, start + sent * gap - performance.now()));
    };
    setTimeout(tick, 50);
  });
  return lib.percentiles(latencies);
}

async function main() {
  if (!URL_)
    throw new Error('usage: node bench/pg-floor.js --pg postgres://…/db [--rate 200] [--pairs 2000] [--rounds 2]');
  const pool = new Pool({ connectionString: URL_, max: 8 });
  await pool.query('DROP TABLE IF EXISTS pg_floor_probe');
  await pool.query('CREATE TABLE pg_floor_probe (id text PRIMARY KEY, n int NOT NULL, body text NOT NULL)');
  const rows = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const mode of ['write', 'select']) {
        const p = await run(pool, mode);
        rows.push([round, mode, ...[p.p50, p.p90, p.p99, p.max].map((v) => lib.round(v, 2))]);
        await pool.query('TRUNCATE pg_floor_probe');
      }
    }
  } finally {
    await pool.query('DROP TABLE IF EXISTS pg_floor_probe');
    await pool.end();
  }
  console.log(
    `\n${PAIRS} pairs of autocommitted statements at ${RATE}/s, node-postgres pool of 8; ms from the scheduled time\n`,
  );
  console.log(lib.markdownTable(['round', 'pair', 'p50', 'p90', 'p99', 'max'], rows));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
