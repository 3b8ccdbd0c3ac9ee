import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the documented defaults with no variables', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.SIM_TASK_MS).toBe(3000);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.MIGRATIONS_RUN).toBe(true);
  });

  it('applies every default that .env.example states', () => {
    const defaults = loadConfig({}) as unknown as Record<string, unknown>;
    const stated = readFileSync(join(__dirname, '../../../.env.example'), 'utf8')
      .split('\n')
      .map((line) => /^([A-Z][A-Z0-9_]*)=(.+)$/.exec(line.trim()))
      .filter((m): m is RegExpExecArray => m !== null && m[1] in defaults && defaults[m[1]] !== undefined);
    expect(stated.length).toBeGreaterThan(20);
    for (const [, name, value] of stated) expect(`${name}=${String(defaults[name])}`).toBe(`${name}=${value}`);
  });

  it('runs the sync worker in small, frequent cycles (a second’s polls and settlements in one burst stalled requests)', () => {
    const c = loadConfig({});
    expect(c.SYNC_INTERVAL_MS).toBeLessThanOrEqual(100);
    expect(c.SYNC_BATCH_SIZE).toBeLessThanOrEqual(50);
  });

  it('scavenges between requests unless IDLE_SCAVENGE=false', () => {
    expect(loadConfig({}).IDLE_SCAVENGE).toBe(true);
    expect(loadConfig({ IDLE_SCAVENGE: 'false' }).IDLE_SCAVENGE).toBe(false);
  });

  it('runs the hand-written speed pieces unless FAST_PATHS=false', () => {
    expect(loadConfig({}).FAST_PATHS).toBe(true);
    expect(loadConfig({ FAST_PATHS: 'false' }).FAST_PATHS).toBe(false);
    expect(() => loadConfig({ FAST_PATHS: 'sometimes' })).toThrow(/FAST_PATHS/);
  });

  it('turns off the speed pieces FAST_PATHS_OFF names, and refuses a name it does not know', () => {
    expect(loadConfig({}).FAST_PATHS_OFF).toEqual([]);
    expect(loadConfig({ FAST_PATHS_OFF: 'axios-adapter, hot-sql' }).FAST_PATHS_OFF).toEqual([
      'axios-adapter',
      'hot-sql',
    ]);
    expect(() => loadConfig({ FAST_PATHS_OFF: 'axios-adapter,warp-drive' })).toThrow(
      /FAST_PATHS_OFF names pieces among/,
    );
  });

  it('parses numbers and booleans from strings', () => {
    const c = loadConfig({ PORT: '8080', CALLBACK_ALLOW_PRIVATE: 'true', DATABASE_URL: 'sqlite::memory:' });
    expect(c.PORT).toBe(8080);
    expect(c.CALLBACK_ALLOW_PRIVATE).toBe(true);
    expect(c.DATABASE_URL).toBe('sqlite::memory:');
  });

  it.each([
    ['PORT', 'abc'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'localhost:6379'],
    ['SIM_TASK_MS', '0'],
    ['CALLBACK_ALLOW_PRIVATE', 'maybe'],
    ['LOG_FORMAT', 'xml'],
  ])('names the variable when %s=%s is bad', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name}=`));
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '1.5'],
    ['SIM_TASK_MS', 'soon'],
  ])('says %s=%s must be an integer (not a range complaint about NaN)', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(
      `Invalid configuration: ${name}="${value}": ${name} must be an integer number`,
    );
  });

  it('sizes the PostgreSQL pool from DATABASE_POOL_SIZE (20 by default), a whole number from 1 to 1000', () => {
    expect(loadConfig({}).DATABASE_POOL_SIZE).toBe(20);
    expect(loadConfig({ DATABASE_POOL_SIZE: '40' }).DATABASE_POOL_SIZE).toBe(40);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(
      'Invalid configuration: DATABASE_POOL_SIZE="0": DATABASE_POOL_SIZE must not be less than 1',
    );
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '2.5' })).toThrow('DATABASE_POOL_SIZE must be an integer number');
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '5000' })).toThrow(
      'DATABASE_POOL_SIZE must not be greater than 1000',
    );
  });

  it('bounds the sync writes apart from the polls with SYNC_WRITE_CONCURRENCY (unset by default), a whole number from 1 to 256', () => {
    expect(loadConfig({}).SYNC_WRITE_CONCURRENCY).toBeUndefined();
    expect(loadConfig({}).SYNC_CONCURRENCY).toBe(16);
    expect(loadConfig({ SYNC_WRITE_CONCURRENCY: '8' }).SYNC_WRITE_CONCURRENCY).toBe(8);
    expect(() => loadConfig({ SYNC_WRITE_CONCURRENCY: '0' })).toThrow('SYNC_WRITE_CONCURRENCY must not be less than 1');
    expect(() => loadConfig({ SYNC_WRITE_CONCURRENCY: '300' })).toThrow(
      'SYNC_WRITE_CONCURRENCY must not be greater than 256',
    );
  });

  it('still states the range for a well-formed integer out of it', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow('PORT must not be greater than 65535');
  });

  it('never prints a bad ADMIN_TOKEN, only its name, its length and the rule', () => {
    const secret = 'tooShortSecret';
    let message = '';
    try {
      loadConfig({ ADMIN_TOKEN: secret });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      'Invalid configuration: ADMIN_TOKEN (value hidden, 14 characters): ADMIN_TOKEN must be at least 16 characters',
    );
    expect(message).not.toContain(secret);
  });

  it('masks the password of a bad URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://gw:hunter2@db:3306/gw' })).toThrow(
      'DATABASE_URL="mysql://gw:***@db:3306/gw"',
    );
  });

  it('defaults the log format to auto and the admin token file to the data directory', () => {
    expect(loadConfig({})).toMatchObject({ LOG_FORMAT: 'auto', ADMIN_TOKEN_FILE: 'data/admin-token' });
    expect(loadConfig({ LOG_FORMAT: 'json', ADMIN_TOKEN_FILE: '/var/lib/gw/token' })).toMatchObject({
      LOG_FORMAT: 'json',
      ADMIN_TOKEN_FILE: '/var/lib/gw/token',
    });
  });
});
