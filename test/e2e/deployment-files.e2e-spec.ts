import { spawnSync } from 'child_process';
import { readFileSync } from 'fs';
import { BlockList } from 'net';
import { join } from 'path';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** The services of docker-compose.yml by name, each with its block of lines (anchors resolved by name). */
function composeServices(text: string): Map<string, string> {
  const body = text.slice(text.indexOf('\nservices:\n') + 1).split(/\n(?=\S)/)[0];
  const services = new Map<string, string>();
  for (const block of body.split(/\n(?= {2}[a-z0-9-]+:\n)/).slice(1)) {
    const name = /^ {2}([a-z0-9-]+):/.exec(block)![1];
    const anchor = /<<: \*([\w-]+)/.exec(block)?.[1];
    const inherited = anchor ? text.slice(text.indexOf(`&${anchor}\n`)).split(/\n(?=\S)/)[0] : '';
    services.set(name, `${block}\n${inherited}`);
  }
  return services;
}

describe('deployment files', () => {
  const compose = read('docker-compose.yml');
  const services = composeServices(compose);

  it('docker-compose.yml: every image pinned to a version (no latest, no bare major), every service with a healthcheck', () => {
    expect([...services.keys()]).toEqual(
      expect.arrayContaining(['gateway', 'postgres', 'redis', 'minio', 'minio-bucket', 'haproxy']),
    );
    for (const [name, block] of services) {
      expect({ name, healthcheck: /\n\s+healthcheck:/.test(block) }).toEqual({ name, healthcheck: true });
      const image = /\n\s+image: (\S+)/.exec(block)?.[1];
      if (!image) continue; // built from the Dockerfile
      expect({ name, image, pinned: /:(\d+\.\d+[\w.-]*|RELEASE\.[\w-]+)$/.test(image) }).toEqual({
        name,
        image,
        pinned: true,
      });
    }
  });

  it('the scale profile puts three instances behind HAProxy, the config file the scale scenario runs', () => {
    const scaled = [...services].filter(([, block]) => /profiles: \[scale\]/.test(block)).map(([name]) => name);
    expect(scaled.sort()).toEqual(['gateway-2', 'gateway-3', 'haproxy']);
    const haproxy = services.get('haproxy')!;
    expect(haproxy).toContain('./deploy/haproxy:/usr/local/etc/haproxy:ro');
    for (const [i, instance] of ['gateway', 'gateway-2', 'gateway-3'].entries())
      expect(haproxy).toContain(`GATEWAY_${i + 1}: ${instance}:3000`);
    const cfg = read('deploy/haproxy/haproxy.cfg');
    expect(cfg.match(/^\s+server gw\d "\$\{GATEWAY_\d\}"$/gm)).toHaveLength(3);
    // The balancer's own failures answer like the gateway's outage: 503 with Retry-After, in the error shape.
    for (const status of [502, 503, 504]) expect(cfg).toContain(`errorfile ${status} "\${HAPROXY_ERRORS}/503.http"`);
    const page = read('deploy/haproxy/errors/503.http');
    expect(page).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(page).toMatch(/\r\nRetry-After: \d+\r\n/);
    expect(JSON.parse(page.split('\r\n\r\n')[1])).toMatchObject({ error: { code: 'service_unavailable' } });
  });

  it("the instances take the client's address from HAProxy's X-Forwarded-For, believed from its address only", () => {
    expect(read('deploy/haproxy/haproxy.cfg')).toMatch(/^\s+option forwardfor$/m);
    // The scheme too is the balancer's to state, not the client's (a trusted proxy's X-Forwarded-Proto is believed).
    expect(read('deploy/haproxy/haproxy.cfg')).toMatch(/^\s+http-request set-header X-Forwarded-Proto http$/m);
    // Compose: HAProxy's fixed address on its own network, outside the range the instances are given theirs from.
    const address = /\n\s+balancer: \{ ipv4_address: (\S+) \}/.exec(services.get('haproxy')!)![1];
    for (const instance of ['gateway', 'gateway-2', 'gateway-3']) {
      const block = services.get(instance)!;
      expect({
        instance,
        trusted: /\n\s+TRUST_PROXY: (\S+)/.exec(block)?.[1],
        networks: /\n\s+networks: \[(.*)\]/.exec(block)?.[1],
      }).toEqual({ instance, trusted: address, networks: 'default, balancer' });
    }
    const [, subnet, range] = /\n {2}balancer:\n[^]*?config: \[\{ subnet: (\S+), ip_range: (\S+) \}\]/.exec(compose)!;
    const within = (cidr: string) => {
      const list = new BlockList();
      list.addSubnet(cidr.split('/')[0], Number(cidr.split('/')[1]));
      return list.check(address);
    };
    expect({ inSubnet: within(subnet), inInstancesRange: within(range) }).toEqual({
      inSubnet: true,
      inInstancesRange: false,
    });
    // The scale scenario: HAProxy and the instances on loopback.
    const scale = read('reliability/scale.js');
    expect(scale).toContain('servers: ports.map((p) => `127.0.0.1:${p}`)');
    expect(scale).toContain("TRUST_PROXY: 'loopback'");
  });

  // CI and the image run the same Node 24 and compile better-sqlite3 against the same headers.
  const nodeScript = read('scripts/node.sh');
  const pinned = (name: string) => new RegExp(`^${name}=(\\d+\\.\\d+\\.\\d+)$`, 'm').exec(nodeScript)![1];

  it("the image: scripts/node.sh's Node 24, better-sqlite3 compiled on its headers, a non-root user", () => {
    const dockerfile = read('Dockerfile');
    expect(pinned('RUNTIME')).toMatch(/^24\./);
    expect(dockerfile.match(/^FROM .*$/gm)).toEqual([
      `FROM node:${pinned('HEADERS')}-bookworm-slim AS build`,
      `FROM node:${pinned('RUNTIME')}-bookworm-slim`,
    ]);
    expect(dockerfile).toMatch(/^RUN npm_config_build_from_source=true npm_config_nodedir=\/usr\/local npm ci /m);
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it('the build context: only what the Dockerfile copies (no node_modules, data/ or .env)', () => {
    const dockerfile = read('Dockerfile');
    const ignore = read('.dockerignore')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'));
    expect(ignore[0]).toBe('*');
    const copied = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1].split(' '));
    expect(
      ignore
        .slice(1)
        .map((line) => line.replace(/^!/, ''))
        .sort(),
    ).toEqual([...new Set(copied)].sort());
  });

  it('package.json: Node 20, 22 and 24, the lines better-sqlite3 12 runs on', () => {
    const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; dependencies: Record<string, string> };
    expect(pkg.engines.node).toBe('^20.19.0 || ^22.0.0 || ^24.0.0');
    expect(pkg.dependencies['better-sqlite3']).toMatch(/^\^12\./);
    // The headers better-sqlite3 12 compiles against must predate the 24.x ObjectWrap change (24.19).
    expect(pinned('HEADERS')).toMatch(/^24\.(\d|1[0-8])\./);
  });

  it("better-sqlite3's binary survives statements the garbage collector frees between promise jobs", () => {
    // V8 collects during the microtask checkpoint with no context entered; a binary compiled on Node
    // 24.19+ headers aborts there (`Assertion failed: (env) != nullptr`), whatever the runtime.
    const script = `
      const db = new (require('better-sqlite3'))(':memory:');
      const work = async (i) => { await null; db.prepare('select ' + (i % 100)).get(); return new Array(64).fill(i); };
      (async () => {
        for (let round = 0; round < 50; round++) await Promise.all(Array.from({ length: 1000 }, (_, i) => work(i)));
        console.log('survived');
      })();`;
    const run = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect({
      status: run.status,
      signal: run.signal,
      stdout: run.stdout.trim(),
      stderr: run.stderr.slice(0, 300),
    }).toEqual({
      status: 0,
      signal: null,
      stdout: 'survived',
      stderr: '',
    });
  });
});
