'use strict';
/**
 * The scale scenario's own servers, each on a free loopback port, started and stopped at will:
 * PostgreSQL (initdb into a temp dir, Debian's binaries in /usr/lib/postgresql/<version>/bin; as the
 * `postgres` user when run as root, which PostgreSQL refuses), redis-server, and HAProxy with the
 * deployment's own config (deploy/haproxy/haproxy.cfg). None touches a server already running.
 */
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const bench = require('../bench/lib');

const ROOT = bench.ROOT;

/** An executable's path, or null: the first of `candidates` that exists, else the name found on PATH. */
function which(name, candidates = []) {
  for (const file of candidates) if (fs.existsSync(file)) return file;
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** A command as the `postgres` user when this process is root (initdb and postgres refuse root). */
function asPostgres(file, args) {
  return process.getuid && process.getuid() === 0 ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
}

function run(file, args) {
  const [cmd, argv] = asPostgres(file, args);
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * As `run`, without blocking the event loop (the load goes on while PostgreSQL stops and starts).
 * No pipes: the server pg_ctl starts would inherit them and hold them open; its messages are in its log.
 */
function runAsync(file, args) {
  const [cmd, argv] = asPostgres(file, args);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(file)} ${args[0]}: exit ${code}`)),
    );
  });
}

class PostgresServer {
  /** Its files go in a temp dir of its own (the `postgres` user must reach it); `remove()` deletes it. */
  constructor({ port }) {
    const base = '/usr/lib/postgresql';
    const versions = fs.existsSync(base) ? fs.readdirSync(base).sort((a, b) => Number(a) - Number(b)) : [];
    if (!versions.length) throw new Error('scale: no PostgreSQL in /usr/lib/postgresql (apt-get install postgresql)');
    this.bin = path.join(base, versions[versions.length - 1], 'bin');
    this.version = versions[versions.length - 1];
    this.dir = bench.tempDir('gw-scale-pg-');
    this.data = path.join(this.dir, 'data');
    this.port = port;
    this.url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  }

  /** initdb (trust on loopback: a throwaway cluster nobody else reaches), then start. */
  init() {
    if (process.getuid && process.getuid() === 0) execFileSync('chown', ['-R', 'postgres', this.dir]);
    run(path.join(this.bin, 'initdb'), ['-D', this.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    return this.start();
  }

  async start() {
    await runAsync(path.join(this.bin, 'pg_ctl'), [
      'start',
      '-w',
      '-t',
      '60',
      '-D',
      this.data,
      '-l',
      path.join(this.dir, 'postgres.log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c max_connections=200`,
    ]);
  }

  /** `fast`: sessions are terminated (as a restart or a failover does), the server stops at once. */
  async stop(mode = 'fast') {
    await runAsync(path.join(this.bin, 'pg_ctl'), ['stop', '-w', '-t', '60', '-m', mode, '-D', this.data]);
  }

  /** Stops it if it runs (immediate: nothing to keep) and deletes its files; synchronous, for any exit. */
  remove() {
    try {
      run(path.join(this.bin, 'pg_ctl'), ['stop', '-w', '-t', '60', '-m', 'immediate', '-D', this.data]);
    } catch {
      // Not running.
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

class RedisServer {
  constructor({ dir, port }) {
    this.file = which('redis-server', ['/usr/bin/redis-server']);
    if (!this.file) throw new Error('scale: no redis-server (apt-get install redis-server)');
    this.dir = dir;
    this.port = port;
    this.url = `redis://127.0.0.1:${port}/0`;
    this.child = null;
  }

  async start() {
    fs.mkdirSync(this.dir, { recursive: true });
    const fd = fs.openSync(path.join(this.dir, 'redis.log'), 'a');
    this.child = spawn(
      this.file,
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir],
      { stdio: ['ignore', fd, fd] },
    );
    fs.closeSync(fd);
    await waitForPort(this.port, 10_000);
  }

  /** SIGTERM (its own pid), as a restart does: without persistence every key is gone. */
  stop() {
    return bench.stopChild(this.child, 5000);
  }
}

class HaproxyServer {
  constructor({ dir, port, statsPort, servers }) {
    this.file = which('haproxy', ['/usr/sbin/haproxy']);
    if (!this.file) throw new Error('scale: no haproxy (apt-get install haproxy)');
    this.config = path.join(ROOT, 'deploy', 'haproxy', 'haproxy.cfg');
    this.dir = dir;
    this.port = port;
    this.statsPort = statsPort;
    this.url = `http://127.0.0.1:${port}`;
    this.env = {
      HAPROXY_BIND: `127.0.0.1:${port}`,
      HAPROXY_STATS_BIND: `127.0.0.1:${statsPort}`,
      HAPROXY_ERRORS: path.join(ROOT, 'deploy', 'haproxy', 'errors'),
      ...Object.fromEntries(servers.map((address, i) => [`GATEWAY_${i + 1}`, address])),
    };
    this.child = null;
  }

  async start() {
    const env = { ...process.env, ...this.env };
    execFileSync(this.file, ['-c', '-q', '-f', this.config], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const fd = fs.openSync(path.join(this.dir, 'haproxy.log'), 'a');
    this.child = spawn(this.file, ['-db', '-f', this.config], { env, stdio: ['ignore', fd, fd] });
    fs.closeSync(fd);
    await waitForPort(this.port, 10_000);
  }

  /** The servers' states from the stats page (`UP`, `DOWN`, …), by name. */
  async serverStates() {
    const res = await fetch(`http://127.0.0.1:${this.statsPort}/stats;csv`).catch(() => null);
    if (!res || !res.ok) return {};
    const states = {};
    for (const line of (await res.text()).split('\n')) {
      const [proxy, server, ...rest] = line.split(',');
      if (proxy === 'gateways' && /^gw\d$/.test(server)) states[server] = rest[15];
    }
    return states;
  }

  stop() {
    return bench.stopChild(this.child, 5000);
  }
}

async function waitForPort(port, timeoutMs) {
  const net = require('node:net');
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await bench.sleep(100);
  }
}

module.exports = { PostgresServer, RedisServer, HaproxyServer };
