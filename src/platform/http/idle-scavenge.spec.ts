import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import * as http from 'http';
import { join } from 'path';
import request from 'supertest';
import { setFastPaths } from '../config/fast-paths';
import {
  IDLE_SCAVENGE_MIN_INTERVAL_MS,
  IdleScavenger,
  YoungGeneration,
  minorCollection,
  readYoungGeneration,
  startIdleScavenges,
} from './idle-scavenge';

/** A scavenger over a fake heap and clock; deferred checks run only when the test says so. */
function harness(young: YoungGeneration = { used: 80, capacity: 100 }) {
  const state = { young, now: 1_000, collected: 0, deferred: [] as Array<() => void> };
  const scavenger = new IdleScavenger({
    collect: () => state.collected++,
    young: () => state.young,
    nowMs: () => state.now,
    defer: (run) => state.deferred.push(run),
  });
  const runDeferred = () => state.deferred.splice(0).forEach((run) => run());
  /** One request comes and goes, then the deferred check runs. */
  const idleMoment = () => {
    scavenger.requestStarted();
    scavenger.requestEnded();
    runDeferred();
  };
  return { scavenger, state, runDeferred, idleMoment };
}

describe('IdleScavenger', () => {
  it('scavenges once the last request has ended and the young generation is three quarters full', () => {
    const { scavenger, state, runDeferred } = harness({ used: 75, capacity: 100 });
    scavenger.requestStarted();
    scavenger.requestEnded();
    expect(state.collected).toBe(0);
    runDeferred();
    expect(state.collected).toBe(1);
    expect(scavenger.forced).toBe(1);
  });

  it('leaves a young generation under three quarters full to V8', () => {
    const { state, idleMoment } = harness({ used: 74, capacity: 100 });
    idleMoment();
    expect(state.collected).toBe(0);
  });

  it('never scavenges while another request is in flight', () => {
    const { scavenger, state, runDeferred } = harness();
    scavenger.requestStarted();
    scavenger.requestStarted();
    scavenger.requestEnded();
    runDeferred();
    expect(state.collected).toBe(0);
    scavenger.requestEnded();
    runDeferred();
    expect(state.collected).toBe(1);
  });

  it('gives up when a request arrives between the idle moment and the check', () => {
    const { scavenger, state, runDeferred } = harness();
    scavenger.requestStarted();
    scavenger.requestEnded();
    scavenger.requestStarted();
    runDeferred();
    expect(state.collected).toBe(0);
  });

  it('queues one check per idle moment, however many requests end in it', () => {
    const { scavenger, state } = harness();
    scavenger.requestStarted();
    scavenger.requestEnded();
    scavenger.requestStarted();
    scavenger.requestEnded();
    expect(state.deferred).toHaveLength(1);
  });

  it('forces at most one scavenge per interval, even when the survivors keep the young generation full', () => {
    const { state, idleMoment } = harness({ used: 100, capacity: 100 });
    idleMoment();
    state.now += IDLE_SCAVENGE_MIN_INTERVAL_MS - 1;
    idleMoment();
    expect(state.collected).toBe(1);
    state.now += 1;
    idleMoment();
    expect(state.collected).toBe(2);
  });

  it('does nothing when the young generation cannot be read', () => {
    const { state, idleMoment } = harness({ used: 0, capacity: 0 });
    idleMoment();
    expect(state.collected).toBe(0);
  });
});

describe('IdleScavenger on an HTTP server', () => {
  let server: http.Server;
  let scavenger: IdleScavenger;
  let collected: number;
  let release: () => void;

  beforeEach(async () => {
    collected = 0;
    scavenger = new IdleScavenger({ collect: () => collected++, young: () => ({ used: 90, capacity: 100 }) });
    server = http.createServer((req, res) => {
      if (req.url === '/slow') release = () => res.end('slow');
      else if (req.url === '/hang') return;
      else res.end('fast');
    });
    scavenger.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const settle = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

  it('scavenges after a request, once nothing else is in flight', async () => {
    await request(server).get('/fast').expect(200);
    await settle();
    expect(collected).toBe(1);
  });

  it('waits for a slower request still in flight', async () => {
    const slow = request(server)
      .get('/slow')
      .then((res) => res.text);
    while (!release) await settle();
    await request(server).get('/fast').expect(200);
    await settle();
    expect(collected).toBe(0);
    release();
    expect(await slow).toBe('slow');
    await settle();
    expect(collected).toBe(1);
  });

  it('counts a request whose client went away as ended', async () => {
    await new Promise<void>((resolve) => {
      const { port } = server.address() as { port: number };
      const req = http.get({ host: '127.0.0.1', port, path: '/hang' });
      req.on('error', () => resolve());
      setTimeout(() => req.destroy(), 50);
    });
    for (let i = 0; i < 50 && collected === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(collected).toBe(1);
  });
});

describe('the collector', () => {
  it('is a minor collection of the exposed gc', () => {
    const calls: unknown[] = [];
    const collect = minorCollection({ gc: (options: unknown) => calls.push(options) });
    collect!();
    expect(calls).toEqual([{ type: 'minor' }]);
  });

  it('is absent when node runs without --expose-gc', () => {
    expect(minorCollection({})).toBeUndefined();
  });

  it('attaches only when wanted and available', () => {
    const server = http.createServer();
    expect(startIdleScavenges(server, false, () => undefined)).toBeUndefined();
    expect(startIdleScavenges(server, true, undefined)).toBeUndefined();
    expect(server.listenerCount('request')).toBe(0);
    expect(startIdleScavenges(server, true, () => undefined)).toBeInstanceOf(IdleScavenger);
    expect(server.listenerCount('request')).toBe(1);
  });

  it('attaches nothing when fast paths are off (FAST_PATHS=false): V8 collects as it would', () => {
    const server = http.createServer();
    setFastPaths(false);
    try {
      expect(startIdleScavenges(server, true, () => undefined)).toBeUndefined();
    } finally {
      setFastPaths(true);
    }
    expect(server.listenerCount('request')).toBe(0);
  });

  it('reads the young generation of this process', () => {
    const young = readYoungGeneration();
    expect(young.capacity).toBeGreaterThan(0);
    expect(young.used).toBeGreaterThan(0);
    expect(young.used).toBeLessThanOrEqual(young.capacity);
  });

  it('runs a real scavenge under node --expose-gc, which empties the young generation', () => {
    const script = `
      const { PerformanceObserver, constants } = require('perf_hooks');
      const { getHeapSpaceStatistics } = require('v8');
      const used = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_used_size;
      const kinds = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => kinds.push(e.detail.kind))).observe({ entryTypes: ['gc'] });
      let keep = [];
      for (let i = 0; i < 20000; i++) keep.push({ i });
      keep = null;
      const before = used();
      gc({ type: 'minor' });
      const after = used();
      setTimeout(() => console.log(JSON.stringify({ before, after, minor: kinds.includes(constants.NODE_PERFORMANCE_GC_MINOR), major: kinds.includes(constants.NODE_PERFORMANCE_GC_MAJOR) })), 20);
    `;
    const out = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' }));
    expect(out.minor).toBe(true);
    expect(out.major).toBe(false);
    expect(out.after).toBeLessThan(out.before / 2);
  });

  it('is not exposed by `npm start` nor the Docker image: forced scavenges are off by default', () => {
    const root = join(__dirname, '../../..');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
    expect(pkg.scripts.start.split(/\s+/)).not.toContain('--expose-gc');
    const cmd = /^CMD \[.*\]$/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'));
    expect(cmd?.[0]).toContain('dist/src/main.js');
    expect(cmd?.[0]).not.toContain('--expose-gc');
  });
});
