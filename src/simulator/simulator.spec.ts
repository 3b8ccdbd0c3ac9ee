import * as net from 'node:net';
import { AddressInfo } from 'node:net';
import { RunningSimulator, startSimulator } from './simulator';
import { fetchBytes, getJson, looksLikeMp4, looksLikePng, postJson, sleep } from '../../test/simulator/spec-helpers';

describe('startSimulator', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator({ taskMs: 100 });
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.reset());

  it('starts three loopback servers on distinct random ports with random credentials', async () => {
    const urls = [sim.endpoints.kl.baseUrl, sim.endpoints.ax.baseUrl, sim.endpoints.vd.baseUrl];
    for (const url of urls) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set(urls).size).toBe(3);
    const other = await startSimulator();
    try {
      expect(other.endpoints.kl.apiKey).not.toBe(sim.endpoints.kl.apiKey);
      expect(other.endpoints.kl.secretKey).not.toBe(sim.endpoints.kl.secretKey);
      expect(other.endpoints.ax.apiKey).not.toBe(sim.endpoints.ax.apiKey);
      expect(other.endpoints.vd.apiKey).not.toBe(sim.endpoints.vd.apiKey);
    } finally {
      await other.close();
    }
  });

  it('uses the credentials it is given', async () => {
    const given = await startSimulator({
      credentials: {
        kl: { apiKey: 'kl-key', accessKey: 'ak', secretKey: 'sk' },
        ax: { apiKey: 'ax-key' },
        vd: { apiKey: 'vd-key' },
      },
    });
    try {
      expect(given.endpoints.kl).toMatchObject({ apiKey: 'kl-key', accessKey: 'ak', secretKey: 'sk' });
      expect(given.endpoints.ax.apiKey).toBe('ax-key');
      expect(given.endpoints.vd.apiKey).toBe('vd-key');
      const reply = await postJson(
        `${given.endpoints.vd.baseUrl}/ent/v2/reference2video`,
        {},
        { authorization: 'Token vd-key' },
      );
      expect(reply.status).toBe(400); // authenticated, then refused for the empty body
    } finally {
      await given.close();
    }
  });

  it.each(['kl', 'ax', 'vd'] as const)('%s serves a real MP4 and PNG without auth', async (family) => {
    const mp4 = await fetchBytes(`${sim.endpoints[family].baseUrl}/assets/sample.mp4?task_id=1`);
    expect(mp4.status).toBe(200);
    expect(mp4.contentType).toBe('video/mp4');
    expect(looksLikeMp4(mp4.bytes)).toBe(true);
    const png = await fetchBytes(`${sim.endpoints[family].baseUrl}/assets/sample.png`);
    expect(png.contentType).toBe('image/png');
    expect(looksLikePng(png.bytes)).toBe(true);
  });

  it('records every request, refused ones included, and reset() empties the same array', async () => {
    const requests = sim.requests;
    await postJson(
      `${sim.endpoints.ax.baseUrl}/api/v1/tasks/x?y=1`,
      { hello: 'world' },
      { authorization: 'Bearer wrong' },
    );
    await fetch(`${sim.endpoints.vd.baseUrl}/ent/v2/reference2video`, {
      method: 'POST',
      body: 'not json',
      headers: { authorization: `Token ${sim.endpoints.vd.apiKey}` },
    });
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({
      family: 'ax',
      method: 'POST',
      path: '/api/v1/tasks/x?y=1',
      body: { hello: 'world' },
    });
    expect(requests[0].headers.authorization).toBe('Bearer wrong');
    expect(requests[1]).toMatchObject({ family: 'vd', body: 'not json' });
    sim.reset();
    expect(sim.requests).toBe(requests);
    expect(requests).toHaveLength(0);
  });

  it('answers malformed JSON with the native 400', async () => {
    const response = await fetch(`${sim.endpoints.kl.baseUrl}/v1/general/custom-voices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.endpoints.kl.apiKey}`, 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 1201, data: null });
  });

  it('refuses forceState for an unknown task', () => {
    expect(() => sim.forceState('ax', 'no-such-task', { output: {} })).toThrow(/no task/);
  });

  it('setTaskMs changes the duration of tasks created afterwards', async () => {
    sim.setTaskMs(5000);
    try {
      const created = await postJson(
        `${sim.endpoints.ax.baseUrl}/api/v1/services/aigc/video-generation/video-synthesis`,
        { model: 'wx2.6-r2v', input: { prompt: 'p', reference_urls: ['https://x/a.png'] } },
        { authorization: `Bearer ${sim.endpoints.ax.apiKey}`, 'x-dashscope-async': 'enable' },
      );
      await sleep(300); // well past the 100 ms the simulator started with
      const reply = await getJson(`${sim.endpoints.ax.baseUrl}/api/v1/tasks/${created.body.output.task_id}`, {
        authorization: `Bearer ${sim.endpoints.ax.apiKey}`,
      });
      expect(reply.body.output.task_status).toBe('PENDING');
    } finally {
      sim.setTaskMs(100);
    }
  });

  it('close() cuts a hanging request and resolves', async () => {
    const hanging = await startSimulator();
    const request = postJson(
      `${hanging.endpoints.vd.baseUrl}/ent/v2/reference2video`,
      { model: 'vdq2', prompt: 'sim:hang', images: ['x'] },
      { authorization: `Token ${hanging.endpoints.vd.apiKey}` },
    );
    const outcome = request.then(
      () => 'answered',
      () => 'cut',
    );
    while (hanging.requests.length === 0) await sleep(5);
    await sleep(50);
    const started = Date.now();
    await hanging.close();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await outcome).toBe('cut');
  });

  it('fails to start when one of its ports is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as AddressInfo).port;
    try {
      await expect(startSimulator({ ports: { vd: taken } })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
