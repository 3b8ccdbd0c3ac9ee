'use strict';
/**
 * SQL statements per request on the hot paths (ax create, ax query, vd create):
 * the production build in-process on a temp SQLite file, against the simulator over real HTTP,
 * with TypeORM's query runner wrapped to count. Not a timing benchmark: it explains the
 * persistence share of the profile.
 *
 *   node bench/queries-per-request.js [--requests 200] [--sql] [--pg postgres://…/db]
 *
 * With --pg the gateway runs on that PostgreSQL database (its schema is dropped and re-created
 * first) and the table also shows database round trips (each pg Client#query: BEGIN and COMMIT
 * count) per request.
 */
process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'silent';
const sql = require('./sql-counter');
const path = require('node:path');
const fs = require('node:fs');
const lib = require('./lib');

const argv = process.argv.slice(2);
const N = Number(argv[argv.indexOf('--requests') + 1]) || 200;
const SHOW_SQL = argv.includes('--sql');
const ADMIN = 'bench-admin-token-0123456789abcdef';
const PG_AT = argv.indexOf('--pg');
const PG_URL = PG_AT >= 0 ? argv[PG_AT + 1] : null;

async function main() {
  require('reflect-metadata');
  const { startSimulator } = lib.requireDist('simulator/simulator.js');
  const { simulatorChannels } = lib.requireDist('bootstrap/resolve-channels.js');
  const { createGatewayApp } = lib.requireDist('app.factory.js');
  const { loadConfig } = lib.requireDist('platform/config/app-config.js');
  const sim = await startSimulator({ taskMs: 3_600_000 });
  const dir = lib.tempDir('gw-queries-');
  if (PG_URL) {
    const { Client } = require(require.resolve('pg', { paths: [lib.ROOT] }));
    const client = new Client({ connectionString: PG_URL });
    await client.connect();
    await client.query('DROP SCHEMA IF EXISTS public CASCADE');
    await client.query('CREATE SCHEMA public');
    await client.end();
  }
  const config = loadConfig({
    DATABASE_URL: PG_URL ?? `sqlite:${path.join(dir, 'gateway.sqlite')}`,
    LOG_LEVEL: 'silent',
    ADMIN_TOKEN: ADMIN,
    DEFAULT_RATE_LIMIT_RPM: '100000000',
    DEFAULT_MAX_CONCURRENT_TASKS: '100000000',
    SYNC_POLL_BASE_MS: '3600000',
    SYNC_POLL_MAX_MS: '3600000',
    WORKERS_ENABLED: 'false',
  });
  const app = await createGatewayApp({ config, channels: simulatorChannels(sim), adminToken: ADMIN });
  await app.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  try {
    const admin = { authorization: `Bearer ${ADMIN}` };
    const account = await lib.httpJson('POST', `${url}/admin/v1/accounts`, {
      headers: admin,
      body: { name: 'bench', balance: 1e15 },
    });
    await lib.httpJson('PUT', `${url}/admin/v1/accounts/${account.id}/models`, {
      headers: admin,
      body: { models: [{ model: 'wx2.7-r2v' }, { model: 'vdq3' }] },
    });
    const key = (
      await lib.httpJson('POST', `${url}/admin/v1/accounts/${account.id}/keys`, {
        headers: admin,
        body: { name: 'bench' },
      })
    ).key;
    const auth = { authorization: `Bearer ${key}` };
    const bBody = {
      model: 'wx2.7-r2v',
      input: { prompt: 'Image 1 walks', media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
      parameters: { resolution: '720P', duration: 5 },
    };
    const cBody = {
      model: 'vdq3',
      subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
      prompt: '@cat plays',
    };
    const ids = [];
    // Warm the principal cache so the steady state is measured.
    ids.push(
      (
        await lib.httpJson('POST', `${url}/ax/api/v1/services/aigc/video-generation/video-synthesis`, {
          headers: auth,
          body: bBody,
        })
      ).output.task_id,
    );
    const rows = [];
    const measure = async (label, fn) => {
      sql.record(true);
      const before = sql.snapshot();
      for (let i = 0; i < N; i++) await fn(i);
      const d = sql.since(before);
      rows.push(
        PG_URL
          ? [label, (d.queries / N).toFixed(2), (d.trips / N).toFixed(2)]
          : [label, (d.queries / N).toFixed(2), (d.prepares / N).toFixed(2)],
      );
      if (SHOW_SQL) {
        process.stdout.write(`\n${label}: statements per request\n`);
        for (const [text, count] of sql.texts())
          process.stdout.write(`  ${(count / N).toFixed(2)}  ${text.slice(0, 160)}\n`);
      }
      sql.record(false);
    };
    await measure('ax create', async () => {
      ids.push(
        (
          await lib.httpJson('POST', `${url}/ax/api/v1/services/aigc/video-generation/video-synthesis`, {
            headers: auth,
            body: bBody,
          })
        ).output.task_id,
      );
    });
    await measure('ax query', async (i) => {
      await lib.httpJson('GET', `${url}/ax/api/v1/tasks/${ids[i % ids.length]}`, { headers: auth });
    });
    const cIds = [];
    await measure('vd create', async () => {
      cIds.push(
        (await lib.httpJson('POST', `${url}/vd/ent/v2/reference2video`, { headers: auth, body: cBody })).task_id,
      );
    });
    await measure('vd creations query', async (i) => {
      await lib.httpJson('GET', `${url}/vd/ent/v2/tasks/${cIds[i % cIds.length]}/creations`, { headers: auth });
    });
    const third = PG_URL ? 'database round trips / request' : 'statements prepared / request (cache misses)';
    process.stdout.write(
      `\n${PG_URL ? 'PostgreSQL' : 'SQLite'}\n${lib.markdownTable(['request', 'SQL statements / request', third], rows)}\n`,
    );
  } finally {
    await app.close();
    await sim.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
