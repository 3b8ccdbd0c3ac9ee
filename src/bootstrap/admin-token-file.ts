import { randomBytes } from 'crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'fs';
import { dirname, resolve } from 'path';
import { ConfigError } from '../platform/config/app-config';

/** Shortest admin token accepted (the rule ADMIN_TOKEN follows too). */
const MIN_LENGTH = 16;

export interface AdminToken {
  token: string;
  /** `env`: ADMIN_TOKEN; `created`: generated now into `file`; `reused`: read from `file`. */
  origin: 'env' | 'created' | 'reused';
  /** Absolute path of the token file (not for `env`). */
  file?: string;
  /** The file was readable by others and has been set back to 0600. */
  tightened?: boolean;
}

/**
 * The admin API's bearer token. ADMIN_TOKEN wins; without it the token kept in ADMIN_TOKEN_FILE
 * (default `data/admin-token`) is reused, so a restart does not lock the operator out; on the
 * first start a random token is generated into that file, readable by its owner only (0600).
 * Errors name the file, never its content.
 */
export function resolveAdminToken(
  config: { ADMIN_TOKEN?: string; ADMIN_TOKEN_FILE: string },
  cwd = process.cwd(),
): AdminToken {
  if (config.ADMIN_TOKEN) return { token: config.ADMIN_TOKEN, origin: 'env' };
  const file = resolve(cwd, config.ADMIN_TOKEN_FILE);
  const existing = readToken(file);
  if (existing !== null) return existing;
  const token = randomBytes(24).toString('base64url');
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw cannotWrite(file, error);
  }
  try {
    // `wx`: never overwrite; an instance starting at the same moment may have written it first.
    writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readToken(file) as AdminToken;
    throw cannotWrite(file, error);
  }
  return { token, origin: 'created', file };
}

function cannotWrite(file: string, error: unknown): ConfigError {
  const why = (error as NodeJS.ErrnoException).code ?? String(error);
  return new ConfigError(
    `Cannot write the admin token file ${file} (ADMIN_TOKEN_FILE): ${why}; set ADMIN_TOKEN or point ADMIN_TOKEN_FILE at a writable path`,
  );
}

function readToken(file: string): AdminToken | null {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new ConfigError(`Cannot read the admin token file ${file} (ADMIN_TOKEN_FILE): ${code ?? String(error)}`);
  }
  const token = content.trim();
  if (token.length < MIN_LENGTH || /\s/.test(token)) {
    throw new ConfigError(
      `The admin token file ${file} (ADMIN_TOKEN_FILE) must hold one token of at least ${MIN_LENGTH} characters without spaces; delete it to have a new one generated, or set ADMIN_TOKEN`,
    );
  }
  let tightened = false;
  if ((statSync(file).mode & 0o077) !== 0) {
    chmodSync(file, 0o600);
    tightened = true;
  }
  return { token, origin: 'reused', file, ...(tightened ? { tightened } : {}) };
}
