import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { loadEnvFile } from './env-file';
import { loadConfig } from './app-config';

describe('loadEnvFile', () => {
  const keys = ['GW_ENVFILE_ONLY_IN_FILE', 'GW_ENVFILE_IN_BOTH', 'GW_ENVFILE_QUOTED'];
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-envfile-'));
    for (const key of keys) delete process.env[key];
  });
  afterEach(() => {
    for (const key of keys) delete process.env[key];
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts the file’s variables into process.env, where loadConfig reads them', async () => {
    const file = join(dir, '.env');
    writeFileSync(file, '# a comment\nGW_ENVFILE_ONLY_IN_FILE=4321\nGW_ENVFILE_QUOTED="two words"\n');
    expect(await loadEnvFile(file)).toBe(file);
    expect(process.env.GW_ENVFILE_ONLY_IN_FILE).toBe('4321');
    expect(process.env.GW_ENVFILE_QUOTED).toBe('two words');
    expect(loadConfig({ PORT: process.env.GW_ENVFILE_ONLY_IN_FILE }).PORT).toBe(4321);
  });

  it('lets a variable set in the real environment win over the file', async () => {
    const file = join(dir, '.env');
    writeFileSync(file, 'GW_ENVFILE_IN_BOTH=from-file\n');
    process.env.GW_ENVFILE_IN_BOTH = 'from-environment';
    await loadEnvFile(file);
    expect(process.env.GW_ENVFILE_IN_BOTH).toBe('from-environment');
  });

  it('returns null without a file and changes nothing', async () => {
    const before = { ...process.env };
    expect(await loadEnvFile(join(dir, 'missing.env'))).toBeNull();
    expect(process.env).toEqual(before);
  });
});
