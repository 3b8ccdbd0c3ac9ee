import * as http from 'node:http';
import { AX_SIM_VENDOR } from './ax';
import { Chaos, CHAOS_KINDS, mutateBody, parseChaos, UNKNOWN_STATUS } from './chaos';
import { KL_SIM_VENDOR } from './kl';
import { VD_SIM_VENDOR } from './vd';
import { RunningSimulator, startSimulator } from './simulator';
import { getJson, postJson } from '../../test/simulator/spec-helpers';

const VD_BODY = { model: 'vdq3', prompt: 'a cat', images: ['https://example.com/cat.png'] };

/** One raw request: the status and text, or the socket error (a reset) / `timeout`. */
function rawPost(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs = 1000,
): Promise<{ status?: number; text?: string; error?: string }> {
  return new Promise((resolve) => {
    const text = JSON.stringify(body);
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (e) => resolve({ error: e.message }));
        res.on('aborted', () => resolve({ error: 'aborted' }));
      },
    );
    req.setTimeout(timeoutMs, () => {
      req.destroy();
      resolve({ error: 'timeout' });
    });
    req.on('error', (e) => resolve({ error: e.message }));
    req.end(text);
  });
}

describe('simulator chaos', () => {
  describe('parseChaos', () => {
    it('is off when unset, empty or 0', () => {
      expect(parseChaos(undefined)).toBeUndefined();
      expect(parseChaos('')).toBeUndefined();
      expect(parseChaos('0')).toBeUndefined();
    });
    it('reads a rate and optional kinds', () => {
      expect(parseChaos('0.25')).toEqual({ rate: 0.25, kinds: undefined });
      expect(parseChaos('1:reset, garbled')).toEqual({ rate: 1, kinds: ['reset', 'garbled'] });
    });
    it.each(['abc', '2', '-0.1', '0.5:bogus', ':reset'])('refuses %p', (text) => {
      expect(() => parseChaos(text)).toThrow();
    });
  });

  it('picks about `rate` of the requests, reproducibly with a seed, from the kinds given', () => {
    const a = new Chaos({ rate: 0.3, seed: 7 });
    const b = new Chaos({ rate: 0.3, seed: 7 });
    const picksA = Array.from({ length: 2000 }, () => a.pick());
    expect(Array.from({ length: 2000 }, () => b.pick())).toEqual(picksA);
    const faults = picksA.filter(Boolean).length;
    expect(faults).toBeGreaterThan(450);
    expect(faults).toBeLessThan(750);
    expect(new Set(picksA.filter(Boolean))).toEqual(new Set(CHAOS_KINDS));
    const only = new Chaos({ rate: 1, kinds: ['slow'] });
    expect(Array.from({ length: 50 }, () => only.pick())).toEqual(Array(50).fill('slow'));
    expect(new Chaos({ rate: 0 }).pick()).toBeUndefined();
  });

  it('mutates status words and numbers, and reports when nothing changed', () => {
    const ax = { output: { task_status: 'SUCCEEDED', task_id: 't' }, usage: { duration: 5 } };
    expect(mutateBody('regress', ax, AX_SIM_VENDOR.statusWords).body).toEqual({
      output: { task_status: 'RUNNING', task_id: 't' },
      usage: { duration: 5 },
    });
    expect(mutateBody('regress', { state: 'success' }, VD_SIM_VENDOR.statusWords).body).toEqual({
      state: 'processing',
    });
    expect(mutateBody('regress', { data: { task_status: 'succeed' } }, KL_SIM_VENDOR.statusWords).body).toEqual({
      data: { task_status: 'processing' },
    });
    expect(mutateBody('regress', { state: 'queueing' }, VD_SIM_VENDOR.statusWords)).toEqual({
      body: { state: 'queueing' },
      changed: false,
    });
    expect(mutateBody('unknown-status', { state: 'queueing' }, VD_SIM_VENDOR.statusWords).body).toEqual({
      state: UNKNOWN_STATUS,
    });
    expect(mutateBody('string-numbers', { code: 0, data: { list: [1, 'x'] } }, KL_SIM_VENDOR.statusWords).body).toEqual(
      {
        code: '0',
        data: { list: ['1', 'x'] },
      },
    );
  });

  describe('on the servers', () => {
    let sim: RunningSimulator;
    let auth: Record<string, string>;
    beforeAll(async () => {
      sim = await startSimulator({ taskMs: 50 });
      auth = { authorization: `Token ${sim.endpoints.vd.apiKey}` };
    });
    afterAll(() => sim.close());
    afterEach(() => sim.setChaos(null));

    it('is off by default: answers are the documented ones and nothing is counted', async () => {
      const created = await postJson(`${sim.endpoints.vd.baseUrl}/ent/v2/reference2video`, VD_BODY, auth);
      expect(created.status).toBe(200);
      expect(created.body.state).toBe('created');
      expect(sim.chaosStats()).toMatchObject({ requests: 0, injected: 0 });
    });

    it('error5xx answers the native 500 without creating anything', async () => {
      sim.setChaos({ rate: 1, kinds: ['error5xx'] });
      sim.reset();
      const reply = await postJson(`${sim.endpoints.vd.baseUrl}/ent/v2/reference2video`, VD_BODY, auth);
      expect(reply.status).toBe(500);
      expect(sim.chaosStats()).toMatchObject({ requests: 1, injected: 1, byKind: { error5xx: 1 } });
    });

    it('reset cuts the body, garbled sends invalid JSON, timeout never answers', async () => {
      const url = `${sim.endpoints.vd.baseUrl}/ent/v2/reference2video`;
      sim.setChaos({ rate: 1, kinds: ['reset'] });
      expect((await rawPost(url, VD_BODY, auth)).error).toBeDefined();
      sim.setChaos({ rate: 1, kinds: ['garbled'] });
      const garbled = await rawPost(url, VD_BODY, auth);
      expect(garbled.status).toBe(200);
      expect(() => JSON.parse(garbled.text ?? '')).toThrow();
      sim.setChaos({ rate: 1, kinds: ['timeout'] });
      expect((await rawPost(url, VD_BODY, auth, 300)).error).toBe('timeout');
      expect(sim.chaosStats()).toMatchObject({ injected: 1, byKind: { timeout: 1 } });
    });

    it('regress shows a finished task running again; slow delays the answer', async () => {
      const created = await postJson(`${sim.endpoints.vd.baseUrl}/ent/v2/reference2video`, VD_BODY, auth);
      await new Promise((r) => setTimeout(r, 80));
      const url = `${sim.endpoints.vd.baseUrl}/ent/v2/tasks/${created.body.task_id}/creations`;
      expect((await getJson(url, auth)).body.state).toBe('success');
      sim.setChaos({ rate: 1, kinds: ['regress'] });
      expect((await getJson(url, auth)).body.state).toBe('processing');
      sim.setChaos({ rate: 1, kinds: ['slow'], slowMs: 150 });
      const started = Date.now();
      expect((await getJson(url, auth)).body.state).toBe('success');
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    });

    it('never touches the asset files', async () => {
      sim.setChaos({ rate: 1, kinds: ['error5xx'] });
      const res = await fetch(`${sim.endpoints.vd.baseUrl}/assets/sample.png`);
      expect(res.status).toBe(200);
      expect(sim.chaosStats().requests).toBe(0);
    });
  });
});
