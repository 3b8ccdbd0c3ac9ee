import { execFile } from 'child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'fs';
import { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { startBanner } from '../../src/bootstrap/start-banner';
import { TestAccount } from '../support/gateway-harness';
import { SAMPLE_MP4 } from '../support/results';
import { SimulatedGateway, startSimulatedGateway } from '../support/simulated-gateway';

/**
 * The README and the docs it leads to (the API reference, operations) as a newcomer follows them
 * after `npm start`: the API key has one name from the banner to the last example, the examples
 * write their files outside the repository, the SDK example runs as shown, and the admin examples
 * name what a default start has.
 */
const ROOT = resolve(__dirname, '../..');
const PAGES = ['README.md', 'docs/api.md', 'docs/operations.md'];
const DOCS = PAGES.map((page) => readFileSync(join(ROOT, page), 'utf8')).join('\n');
const SDK_EXAMPLE = join(ROOT, 'examples/openai-videos.mjs');

/** The text of every fenced block of those pages in `lang`. */
function codeBlocks(lang: string): string[] {
  return [...DOCS.matchAll(/^```(\S*)\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === lang).map((m) => m[2]);
}

/** The one bash block holding `needle`. */
function bashBlockWith(needle: string): string {
  const found = codeBlocks('bash').filter((block) => block.includes(needle));
  expect(found).toHaveLength(1);
  return found[0];
}

/** The answer the docs show (`# -> …`) for the command on the line before it that holds `needle`. */
function shownAnswer(block: string, needle: string): unknown {
  const lines = block.split('\n');
  const at = lines.findIndex((line) => line.includes(needle));
  const next = lines.slice(at + 1).find((line) => line.startsWith('# -> '));
  return JSON.parse((next as string).slice('# -> '.length));
}

describe('the README and its docs as a newcomer follows them', () => {
  it('names the API key API_KEY everywhere: banner, tour, curl examples, SDK example, npm run demo', () => {
    const banner = startBanner({
      url: 'http://localhost:3000',
      admin: { token: 't'.repeat(32), origin: 'created', file: '/srv/gw/data/admin-token' },
      simulated: ['kl', 'ax', 'vd'],
      channels: [],
      demo: { accountId: 'acct_1', key: 'vgw_demo' },
    });
    expect(banner.join('\n')).toContain('export API_KEY=vgw_demo');
    const bash = codeBlocks('bash').join('\n');
    // The tour's own key replaces the banner's, under the same exported name.
    expect(bash).toMatch(/^export API_KEY=\$\(curl /m);
    const bearers = new Set([...bash.matchAll(/Authorization: Bearer \$(\w+)/g)].map((m) => m[1]));
    expect(bearers).toEqual(new Set(['API_KEY', 'ADMIN']));
    expect(DOCS).not.toMatch(/\$KEY\b|process\.env\.KEY\b|^KEY=/m);
    expect(readFileSync(SDK_EXAMPLE, 'utf8')).toContain('apiKey: process.env.API_KEY');
    expect(readFileSync(join(ROOT, 'scripts/demo.js'), 'utf8')).toContain('process.env.API_KEY');
  });

  it('has every example write its files under $OUT, a directory the tour makes with mktemp -d', () => {
    const bash = codeBlocks('bash').join('\n');
    expect(bash).toMatch(/^export OUT=\$\(mktemp -d\)$/m);
    const targets = [...bash.matchAll(/(?:\s-o\s+|\s>\s*|--data @)(\S+)/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThanOrEqual(4);
    expect(targets.filter((target) => !target.startsWith('"$OUT/'))).toEqual([]);
  });

  it('shows the SDK example as the file that runs, as an ES module', () => {
    const [js] = codeBlocks('js').filter((block) => block.includes("from 'openai'"));
    expect(js).toBe(readFileSync(SDK_EXAMPLE, 'utf8'));
    expect(bashBlockWith('node examples/openai-videos.mjs')).toMatch(
      /^GATEWAY_URL=\$GW node examples\/openai-videos\.mjs$/m,
    );
  });

  describe('against a gateway started as npm start starts it', () => {
    let gw: SimulatedGateway;
    let acct: TestAccount;
    let origin: string;

    beforeAll(async () => {
      gw = await startSimulatedGateway();
      acct = await gw.admin.account({ models: ['vdq3'] });
      await gw.app.listen(0, '127.0.0.1');
      origin = `http://127.0.0.1:${(gw.app.getHttpServer().address() as AddressInfo).port}`;
    });
    afterAll(() => gw?.close());

    it('runs the SDK example as written: node examples/openai-videos.mjs writes the video to a temporary directory', async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'gw-readme-'));
      const before = readdirSync(ROOT).sort();
      try {
        const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
          execFile(
            process.execPath,
            ['examples/openai-videos.mjs'],
            {
              cwd: ROOT,
              env: { PATH: process.env.PATH, API_KEY: acct.key, GATEWAY_URL: origin, TMPDIR: tmp },
              timeout: 60_000,
            },
            (error, out, err) =>
              done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: out, stderr: err }),
          ),
        );
        expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
        const printed = JSON.parse(stdout) as { id: string; status: string; file: string };
        expect(printed).toMatchObject({ id: expect.stringMatching(/^task_/), status: 'completed' });
        expect(printed.file.startsWith(tmp)).toBe(true);
        expect(Buffer.compare(readFileSync(printed.file), SAMPLE_MP4)).toBe(0);
        expect(readdirSync(ROOT).sort()).toEqual(before);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }, 90_000);

    it('lists and re-weights the channels a default start has, answering as the docs show', async () => {
      const block = bashBlockWith('-XPATCH $GW/admin/v1/channels/');
      const listed = (await gw.admin.get('/admin/v1/channels').expect(200)).body as { data: Array<{ id: string }> };
      expect(listed.data.map((c) => c.id)).toEqual(shownAnswer(block, 'curl -s $GW/admin/v1/channels '));
      const [, id, body] = /-XPATCH \$GW\/admin\/v1\/channels\/(\S+) [\s\S]*?-d '([^']+)'/.exec(
        block,
      ) as RegExpExecArray;
      const patched = await gw.admin.patch(`/admin/v1/channels/${id}`, JSON.parse(body)).expect(200);
      const shown = shownAnswer(block, '-XPATCH') as Record<string, unknown>;
      expect(Object.fromEntries(Object.keys(shown).map((k) => [k, patched.body[k]]))).toEqual(shown);
    });
  });
});
