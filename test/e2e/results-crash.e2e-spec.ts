import { ChildProcess, spawn } from 'child_process';
import { createServer } from 'net';
import { join, resolve } from 'path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { TasksRepository } from '../../src/core/tasks/tasks.repository';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator';
import { simulatorUpstreamEnv } from '../../src/simulator/upstream-env';
import { ADMIN_TOKEN, AdminClient, TestAccount } from '../support/gateway-harness';
import { SlowFileServer, getResult, startSlowFileServer } from '../support/results';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';
import { tempDirs } from '../support/temp-dirs';

const AX_CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const ROOT = resolve(__dirname, '../..');
const onPostgres = (process.env.DATABASE_URL ?? '').startsWith('postgres');
// Each test's directory (results and SQLite file) outlives its gateways' restarts: removed once the file is done,
// after every describe's afterAll and every test's own clean-up have stopped the gateways that use it.
const twoInstancesDir = tempDirs('gw-results-two-');
const killDir = tempDirs('gw-results-kill-');
const body = () => ({
  model: 'wx2.7-r2v',
  input: { prompt: 'Image 1 walks', media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
  parameters: { resolution: '720P', duration: 5 },
});

/** The tasks' ends as the upstream reports them: succeeded, each with its own video on `files`. */
async function finishWithVideos(
  http: () => ReturnType<typeof request>,
  acct: TestAccount,
  sim: RunningSimulator,
  upstreamIdOf: (id: string) => Promise<string>,
  files: SlowFileServer,
  count: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await http()
      .post(AX_CREATE)
      .set(...bearer(acct))
      .send(body())
      .expect(200);
    ids.push(res.body.output.task_id as string);
  }
  const upstreamIds: string[] = [];
  for (const id of ids) upstreamIds.push(await eventually(() => upstreamIdOf(id)));
  // All at once, so that their downloads overlap.
  for (const [i, upstreamId] of upstreamIds.entries())
    sim.forceState('ax', upstreamId, { output: { task_status: 'SUCCEEDED', video_url: `${files.origin}/file/${i}` } });
  return ids;
}

async function allStored(admin: AdminClient, ids: string[], timeoutMs: number): Promise<void> {
  await eventually(
    async () => {
      for (const id of ids) {
        const view = await admin.get(`/admin/v1/tasks/${id}/results`).expect(200);
        if (view.body.files.length !== 1 || view.body.files[0].status !== 'stored') return false;
      }
      return true;
    },
    timeoutMs,
    200,
  );
}

describe('kept results: two instances', () => {
  jest.setTimeout(60_000);
  let a: SimulatedGateway;
  let b: SimulatedGateway;
  let files: SlowFileServer;

  beforeAll(async () => {
    const dir = twoInstancesDir();
    const shared: Record<string, string> = {
      RESULT_STORE_DIR: join(dir, 'results'),
      RESULT_DOWNLOAD_CONCURRENCY: '3',
      ...(onPostgres ? {} : { DATABASE_URL: `sqlite:${join(dir, 'gateway.sqlite')}` }),
    };
    const sim = await startSimulator({ taskMs: 600_000 });
    a = await startSimulatedGateway({ sim, env: shared });
    b = await startSimulatedGateway({ sim, keepData: true, env: shared });
    files = await startSlowFileServer(64 * 1024, 8, 60);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await a.sim.close();
    await files.close();
  });

  it('fetches each file once, whichever instance keeps it', async () => {
    const acct = await a.admin.account({ models: ['wx2.7-r2v'] });
    const tasks = a.app.get(TasksRepository);
    const upstreamIdOf = async (id: string) => (await tasks.findById(id))?.upstreamTaskId ?? '';
    const ids = await finishWithVideos(a.http, acct, a.sim, upstreamIdOf, files, 8);
    await allStored(a.admin, ids, 40_000);
    expect(files.requests.size).toBe(8);
    for (const [path, count] of files.requests) expect([path, count]).toEqual([path, 1]);
    // Either instance serves every kept copy.
    for (const id of ids) {
      const q = await b
        .http()
        .get(`/ax/api/v1/tasks/${id}`)
        .set(...bearer(acct))
        .expect(200);
      const kept = await getResult(b.http, q.body.output.video_url).expect(200);
      expect(Buffer.compare(kept.body as Buffer, files.bytes)).toBe(0);
    }
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** The gateway as `npm start` runs it, in its own process (so it can be killed with SIGKILL). */
function startProcess(env: Record<string, string>): ChildProcess {
  const clean: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(PORT|DATABASE_URL|REDIS_URL|ADMIN_TOKEN.*|LOG_.*|SIM_.*|UPSTREAM_.*|RESULT_.*|JEST_.*)$/.test(key))
      clean[key] = value;
  return spawn(process.execPath, ['-r', require.resolve('ts-node/register'), join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { ...clean, TS_NODE_TRANSPILE_ONLY: 'true', TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'), ...env },
    stdio: 'ignore',
  });
}

/** Kills the gateway process if it still runs, and waits until it is gone (its directory is removed after). */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** Reads the database the gateway process writes, as an operator would. */
async function openDatabase(url: string): Promise<DataSource> {
  const ds = url.startsWith('postgres')
    ? new DataSource({ type: 'postgres', url })
    : new DataSource({ type: 'better-sqlite3', database: url.replace(/^sqlite:/, '') });
  return ds.initialize();
}

describe('kept results: kill -9 in the middle of downloads', () => {
  jest.setTimeout(180_000);

  it('keeps every file after a restart, the interrupted ones fetched again', async () => {
    const sim = await startSimulator({ taskMs: 600_000 });
    // Each file takes ~4 s to send: the kill lands while they are in flight.
    const files = await startSlowFileServer(256 * 1024, 40, 100);
    const dir = killDir();
    const port = await freePort();
    const databaseUrl = onPostgres ? process.env.DATABASE_URL! : `sqlite:${join(dir, 'gateway.sqlite')}`;
    const env = {
      PORT: String(port),
      ADMIN_TOKEN,
      LOG_LEVEL: 'silent',
      DEMO_SEED: 'false',
      DATABASE_URL: databaseUrl,
      RESULT_STORE_DIR: join(dir, 'results'),
      RESULT_DOWNLOAD_CONCURRENCY: '4',
      RESULT_DOWNLOAD_TIMEOUT_MS: '8000',
      RESULT_RETRY_BASE_MS: '100',
      SYNC_INTERVAL_MS: '20',
      SYNC_POLL_BASE_MS: '20',
      SYNC_POLL_MAX_MS: '100',
      ...simulatorUpstreamEnv(sim),
    };
    // PostgreSQL: start from an empty schema, as every harness does.
    if (onPostgres) await (await startSimulatedGateway({ sim })).close();
    const http = () => request(`http://127.0.0.1:${port}`);
    const admin = new AdminClient(http);
    const up = () => eventually(async () => (await http().get('/healthz')).status === 200, 90_000, 250);
    let child = startProcess(env);
    let db: DataSource | undefined;
    try {
      await up();
      db = await openDatabase(databaseUrl);
      const acct = await admin.account({ models: ['wx2.7-r2v'] });
      const database = db;
      const upstreamIdOf = async (id: string): Promise<string> => {
        const rows: Array<{ upstream_task_id: string | null }> = await database.query(
          `SELECT "upstream_task_id" FROM "tasks" WHERE "id" = ${onPostgres ? '$1' : '?'}`,
          [id],
        );
        return rows[0]?.upstream_task_id ?? '';
      };
      const ids = await finishWithVideos(http, acct, sim, upstreamIdOf, files, 4);
      // Every download under way, and not all of them finished: the process dies.
      await eventually(async () => files.requests.size === 4, 30_000, 20);
      const interrupted = [...files.requests.keys()].filter((path) => !files.completed.has(path));
      expect(interrupted.length).toBeGreaterThan(0);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));

      child = startProcess(env);
      await up();
      await allStored(admin, ids, 60_000);
      for (const id of ids) {
        const view = await admin.get(`/admin/v1/tasks/${id}/results`).expect(200);
        expect(view.body.files[0]).toMatchObject({ status: 'stored', size_bytes: files.bytes.length });
        const q = await http()
          .get(`/ax/api/v1/tasks/${id}`)
          .set(...bearer(acct))
          .expect(200);
        const kept = await getResult(http, q.body.output.video_url).expect(200);
        expect(Buffer.compare(kept.body as Buffer, files.bytes)).toBe(0);
      }
      // The interrupted ones were fetched again after the restart; every file was sent whole once.
      for (const path of interrupted) expect(files.requests.get(path)).toBe(2);
      for (const path of files.requests.keys()) expect(files.completed.get(path)).toBe(1);
    } finally {
      await db?.destroy();
      await stopProcess(child);
      await sim.close();
      await files.close();
    }
  });
});
