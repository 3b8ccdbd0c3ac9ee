import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { ConfigError } from '../platform/config/app-config';
import { resolveAdminToken } from './admin-token-file';

describe('resolveAdminToken', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-admin-token-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const mode = (file: string) => statSync(file).mode & 0o777;

  it('generates a token on the first start into the file (creating its directory), readable by its owner only', () => {
    const first = resolveAdminToken({ ADMIN_TOKEN_FILE: 'data/admin-token' }, dir);
    const file = join(dir, 'data', 'admin-token');
    expect(first).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/), origin: 'created', file });
    expect(readFileSync(file, 'utf8')).toBe(`${first.token}\n`);
    expect(mode(file)).toBe(0o600);
  });

  it('reuses the same token at the next start', () => {
    const first = resolveAdminToken({ ADMIN_TOKEN_FILE: 'data/admin-token' }, dir);
    const second = resolveAdminToken({ ADMIN_TOKEN_FILE: 'data/admin-token' }, dir);
    expect(second).toEqual({ token: first.token, origin: 'reused', file: first.file });
  });

  it('ADMIN_TOKEN wins and no file is written', () => {
    expect(
      resolveAdminToken({ ADMIN_TOKEN: 'from-the-environment-123', ADMIN_TOKEN_FILE: 'data/admin-token' }, dir),
    ).toEqual({ token: 'from-the-environment-123', origin: 'env' });
    expect(() => statSync(join(dir, 'data', 'admin-token'))).toThrow();
  });

  it('reads a token an operator put in the file, and sets a file readable by others back to 0600', () => {
    const file = join(dir, 'token');
    writeFileSync(file, '  operator-chosen-token-0123  \n');
    chmodSync(file, 0o644);
    expect(resolveAdminToken({ ADMIN_TOKEN_FILE: file }, '/elsewhere')).toEqual({
      token: 'operator-chosen-token-0123',
      origin: 'reused',
      file,
      tightened: true,
    });
    expect(mode(file)).toBe(0o600);
  });

  it('refuses a file holding a short token, naming the file but never its content', () => {
    const file = join(dir, 'token');
    writeFileSync(file, 'tiny-secret', { mode: 0o600 });
    expect(() => resolveAdminToken({ ADMIN_TOKEN_FILE: file }, dir)).toThrow(ConfigError);
    expect(() => resolveAdminToken({ ADMIN_TOKEN_FILE: file }, dir)).toThrow(
      `${file} (ADMIN_TOKEN_FILE) must hold one token of at least 16 characters`,
    );
    expect(() => resolveAdminToken({ ADMIN_TOKEN_FILE: file }, dir)).not.toThrow(/tiny-secret/);
  });

  it('says which variable to change when the file cannot be written', () => {
    const blocker = join(dir, 'not-a-dir');
    writeFileSync(blocker, '');
    expect(() => resolveAdminToken({ ADMIN_TOKEN_FILE: join(blocker, 'admin-token') }, dir)).toThrow(
      /Cannot write the admin token file .*set ADMIN_TOKEN or point ADMIN_TOKEN_FILE/,
    );
  });
});
