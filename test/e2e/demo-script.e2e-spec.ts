import { execFile } from 'child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { AddressInfo, createServer } from 'net';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { ADMIN_TOKEN } from '../support/gateway-harness';
import { SimulatedGateway, startSimulatedGateway } from '../support/simulated-gateway';

/** `npm run demo` (scripts/demo.js) against a real listening gateway. */
const DEMO = resolve(__dirname, '../../scripts/demo.js');

function demo(
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(API_KEY|ADMIN_TOKEN.*|GATEWAY_URL)$/.test(k)),
  );
  return new Promise((done) =>
    execFile(
      process.execPath,
      [DEMO, ...args],
      { cwd, env: { ...base, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe('npm run demo', () => {
  let gw: SimulatedGateway;
  let url: string;
  let cwd: string;

  beforeAll(async () => {
    gw = await startSimulatedGateway();
    await gw.app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(gw.app.getHttpServer().address() as AddressInfo).port}`;
    cwd = mkdtempSync(join(tmpdir(), 'gw-demo-'));
  });
  afterAll(async () => {
    await gw.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('--new-key: a new demo account and key through the admin API, then one task per family to the end', async () => {
    const r = await demo(['--new-key'], { GATEWAY_URL: url, ADMIN_TOKEN }, cwd);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const issued =
      /new demo account (acct_\w+) \(every model enabled\); its API key, shown only now:\nexport API_KEY=(\S+)/.exec(
        r.stdout,
      );
    expect(issued).not.toBeNull();
    expect(r.stdout).toMatch(/ax \(wx2\.7-r2v\) finished: SUCCEEDED -> \S+/);
    expect(r.stdout).toMatch(/vd \(vdq3, subject mode\) finished: success -> \S+/);
    expect(r.stdout).toMatch(/kl editing \(kl-v1-6\) finished: succeed -> http\S+/);
    // The key printed is a working key of that account, with every model.
    const account = (await gw.admin.get(`/admin/v1/accounts/${issued![1]}`).expect(200)).body;
    expect(account.name).toBe('demo');
    expect(account.keys).toHaveLength(1);
    expect(issued![2].startsWith(account.keys[0].prefix)).toBe(true);
  });

  it('--new-key reads the token file the gateway keeps when ADMIN_TOKEN is unset, and says what it needs without it', async () => {
    const missing = await demo(['--new-key'], { GATEWAY_URL: url }, cwd);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      '--new-key needs the admin token: set ADMIN_TOKEN, or run from the directory where the gateway keeps data/admin-token (or set ADMIN_TOKEN_FILE).\n',
    );

    const wrong = await demo(['--new-key'], { GATEWAY_URL: url, ADMIN_TOKEN: 'not-this-gateways-token' }, cwd);
    expect(wrong.stderr).toBe(
      "GET /admin/v1/prices -> 401: the admin token is not this gateway's (check ADMIN_TOKEN or the token file).\n",
    );

    // Where the gateway runs, data/admin-token holds its token (written by npm start).
    mkdirSync(join(cwd, 'data'));
    writeFileSync(join(cwd, 'data', 'admin-token'), `${ADMIN_TOKEN}\n`, { mode: 0o600 });
    const fromFile = await demo(['--new-key'], { GATEWAY_URL: url }, cwd);
    expect(fromFile).toMatchObject({ code: 0, stderr: '' });
    expect(fromFile.stdout).toMatch(
      /new demo account acct_\w+ \(every model enabled\); its API key, shown only now:\nexport API_KEY=\S+/,
    );
  });

  it('an unreachable gateway is reported with the URL tried and GATEWAY_URL, not "fetch failed"', async () => {
    const closed = await new Promise<number>((done) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const port = (server.address() as AddressInfo).port;
        server.close(() => done(port));
      });
    });
    const r = await demo([], { API_KEY: 'vgw_x', GATEWAY_URL: `http://127.0.0.1:${closed}` }, cwd);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Cannot reach the gateway at http://127.0.0.1:${closed}/ax/api/v1/services/aigc/video-generation/video-synthesis (ECONNREFUSED). ` +
        `Is it running (npm start)? If it listens elsewhere, set GATEWAY_URL (GATEWAY_URL is http://127.0.0.1:${closed}).\n`,
    );
  });

  it('without API_KEY says where a key comes from', async () => {
    const r = await demo([], { GATEWAY_URL: url }, cwd);
    expect(r).toMatchObject({
      code: 2,
      stderr:
        'Set API_KEY to a gateway API key: the demo key `npm start` printed at its first start, or run `npm run demo -- --new-key` to create a new demo account with its own key.\n',
    });
  });
});
