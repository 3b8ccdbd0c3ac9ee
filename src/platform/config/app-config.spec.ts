import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
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

  it('believes no proxy unless TRUST_PROXY names them: a number of hops, or addresses, CIDRs and range names', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).TRUST_PROXY).toEqual(['loopback']);
    expect(
      loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8, 192.0.2.7,linklocal,uniquelocal' }).TRUST_PROXY,
    ).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.0.2.7', 'linklocal', 'uniquelocal']);
  });

  it('gives Express a TRUST_PROXY it compiles, believing only the peers named', () => {
    for (const value of ['1', 'loopback', '10.0.0.0/8, fd00::/8, 192.0.2.7']) {
      const app = express();
      app.set('trust proxy', loadConfig({ TRUST_PROXY: value }).TRUST_PROXY);
      const trusted = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
      expect({ value, first: trusted(value === 'loopback' ? '127.0.0.1' : '10.1.2.3', 0) }).toEqual({
        value,
        first: true,
      });
      if (value !== '1') expect({ value, stranger: trusted('203.0.113.9', 0) }).toEqual({ value, stranger: false });
    }
    const app = express();
    app.set('trust proxy', loadConfig({}).TRUST_PROXY);
    expect((app.get('trust proxy fn') as (address: string, hop: number) => boolean)('127.0.0.1', 0)).toBe(false);
  });

  it('refuses TRUST_PROXY=true: any client could name its own address', () => {
    for (const value of ['true', 'TRUE'])
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        `Invalid configuration: TRUST_PROXY="${value}": TRUST_PROXY must not be true (any client could name its own address)`,
      );
  });

  it.each([
    '0',
    '1.5',
    '-1',
    'proxy.example.com',
    '10.0.0.0/0',
    '10.0.0.1/33',
    '::/0',
    '10.0.0.1/8/8',
    'fe80::1%eth0',
    ',',
  ])('refuses TRUST_PROXY=%s at start, naming the variable and what it takes', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
      `Invalid configuration: TRUST_PROXY=${JSON.stringify(value)}: TRUST_PROXY must be false, a number of proxies (1 or more), or a comma-separated list of addresses, CIDRs, loopback, linklocal, uniquelocal`,
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
