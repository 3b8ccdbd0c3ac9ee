import { execFile } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { Harness, startGateway } from '../support/gateway-harness';

/**
 * The OpenAPI document the gateway serves passes Spectral's `spectral:oas` ruleset (`.spectral.yaml`)
 * with no error: client generators and API tools read it as written. Warnings are allowed.
 */
const ROOT = resolve(__dirname, '../..');
const SPECTRAL = join(ROOT, 'node_modules/.bin/spectral');

type Finding = { code: string; message: string; path: string[]; severity: number };

function spectral(file: string): Promise<Finding[]> {
  return new Promise((done, fail) =>
    execFile(
      SPECTRAL,
      ['lint', file, '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet'],
      { cwd: ROOT, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
      // Spectral exits 1 when it finds an error: its JSON report says which.
      (error, stdout, stderr) => {
        try {
          done(JSON.parse(stdout) as Finding[]);
        } catch {
          fail(new Error(`spectral gave no report (${error?.message ?? 'no error'}): ${stderr}`));
        }
      },
    ),
  );
}

describe('/docs-json under Spectral', () => {
  let gw: Harness;
  let dir: string;

  beforeAll(async () => {
    gw = await startGateway();
    dir = mkdtempSync(join(tmpdir(), 'gw-openapi-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await gw.close();
  });

  it('has no error under spectral:oas', async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify((await gw.http().get('/docs-json').expect(200)).body));
    const errors = (await spectral(file))
      .filter((finding) => finding.severity === 0)
      .map((finding) => `${finding.code} at ${finding.path.join('.')}: ${finding.message}`);
    expect(errors).toEqual([]);
  }, 150_000);
});
