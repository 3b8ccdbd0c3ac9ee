import { simulatorUpstreamEnv } from '../simulator/upstream-env';
import { RunningSimulator, startSimulator } from '../simulator/simulator';
import { sendJson, startFakeUpstream } from '../../test/upstream/fake-upstream';
import { runSmokeUpstream } from './smoke-upstream';

/** Collects what the command writes. */
function sink() {
  let text = '';
  return { write: (chunk: string) => (text += chunk), text: () => text };
}

const FAST = { SMOKE_POLL_MS: '20', SMOKE_TIMEOUT_MS: '5000' };

describe('npm run smoke:upstream', () => {
  it('says there is nothing to check without credentials, and exits 0 (reading no model map file)', async () => {
    const out = sink();
    await expect(runSmokeUpstream({ UPSTREAM_MODEL_MAP_FILE: '/nowhere.json' }, out, sink())).resolves.toBe(0);
    expect(out.text()).toMatch(/no upstream credentials in the environment/);
  });

  it('exits 1 with one line on a bad channel setting', async () => {
    const err = sink();
    await expect(
      runSmokeUpstream({ UPSTREAM_VD_BASE_URL: 'https://api.vidu.com/ent/v2', UPSTREAM_VD_API_KEY: 'k' }, sink(), err),
    ).resolves.toBe(1);
    expect(err.text()).toMatch(/UPSTREAM_VD_BASE_URL must not end in \/ent\/v2/);
  });

  describe('against services that keep the documented contract (the simulator, reached like a real upstream)', () => {
    let sim: RunningSimulator;
    beforeAll(async () => {
      sim = await startSimulator({ taskMs: 150 });
    });
    afterAll(() => sim.close());

    it('follows one task per family to its end, every field as expected, exit 0', async () => {
      const env = {
        ...FAST,
        ...simulatorUpstreamEnv(sim),
        SMOKE_KL_VOICE_URL: 'https://cdn.example/voice.mp3',
      };
      const out = sink();
      const code = await runSmokeUpstream(env, out, sink());
      const report = out.text();
      expect(report).not.toMatch(/MISMATCH/);
      expect(code).toBe(0);
      expect(report).toMatch(/All fields as the gateway expects\./);
      // The default model map sent the vendors' names.
      expect(report).toMatch(/vd\s+create\s+model\s+"vd2\.0" -> "vidu2\.0"/);
      expect(report).toMatch(/ax\s+create\s+model\s+"wx2\.6-r2v-flash" -> "wan2\.6-r2v-flash"/);
      // RUNNING is seen only when a poll lands inside it (150 ms tasks; a loaded machine may miss it).
      expect(report).toMatch(
        /ax\s+poll\s+status words\s+PENDING (-> RUNNING )?-> SUCCEEDED\s+only documented status words\s+ok/,
      );
      expect(report).toMatch(/kl\s+lookup\s+GET by external_task_id gw-smoke-\d+/);
      expect(report).toMatch(/kl\s+auth\s+presets\[0\]\.task_result\.voices\[0\]\.owned_by\s+"kl"/);
      // The simulator answers the probe's Range with 206, as the vendors' storage does.
      expect(report).toMatch(/vd\s+result\s+GET .*sample\.mp4\?…"\s+HTTP 206 video\/mp4/);
      // No credential is ever printed.
      for (const secret of [sim.endpoints.kl.secretKey, sim.endpoints.ax.apiKey, sim.endpoints.vd.apiKey])
        expect(report).not.toContain(secret);
    });

    it('skips the kl task (not the auth check) without a voice sample', async () => {
      const out = sink();
      const code = await runSmokeUpstream(
        { ...FAST, UPSTREAM_KL_BASE_URL: sim.endpoints.kl.baseUrl, UPSTREAM_KL_API_KEY: sim.endpoints.kl.apiKey },
        out,
        sink(),
      );
      expect(code).toBe(0);
      expect(out.text()).toMatch(/kl\s+auth\s+GET presets-voices\s+answered/);
      expect(out.text()).toMatch(/kl\s+create\s+\(not sent\)\s+skipped\s+set SMOKE_KL_VOICE_URL/);
    });
  });

  it('reports every difference from the documented contract and exits 1', async () => {
    let polls = 0;
    const vendor = await startFakeUpstream((req, res) => {
      if (req.method === 'POST')
        return sendJson(res, 200, {
          task_id: '42',
          state: 'created',
          model: 'vidu2.0',
          duration: 4,
          resolution: '360p',
          credits: 8,
          created_at: '2026-01-01 00:00:00',
        });
      polls += 1;
      if (polls === 1) return sendJson(res, 200, { id: '42', state: 'scheduling', creations: [] });
      return sendJson(res, 200, {
        id: '42',
        state: 'success',
        err_code: '',
        credits: 8,
        creations: [{ id: 'c', url: 'http://127.0.0.1:1/v.mp4' }],
      });
    });
    try {
      const out = sink();
      const code = await runSmokeUpstream(
        { ...FAST, UPSTREAM_VD_BASE_URL: vendor.baseUrl, UPSTREAM_VD_API_KEY: 'k' },
        out,
        sink(),
      );
      const report = out.text();
      expect(code).toBe(1);
      expect(report).toMatch(/vd\s+create\s+created_at\s+"2026-01-01 00:00:00"\s+ISO 8601 time ending in Z\s+MISMATCH/);
      expect(report).toMatch(
        /vd\s+poll\s+status words\s+created -> scheduling -> success \(not in the status table: scheduling\).*MISMATCH/,
      );
      expect(report).toMatch(/vd\s+result\s+creations\[0\]\.cover_url\s+\(absent\)\s+http\(s\) URL\s+MISMATCH/);
      expect(report).toMatch(/vd\s+result\s+GET "http:\/\/127\.0\.0\.1:1\/v\.mp4".*MISMATCH/);
      expect(report).toMatch(/field\(s\) differ from what the gateway expects/);
    } finally {
      await vendor.close();
    }
  });

  it('reports a refused create with the vendor’s own code', async () => {
    const vendor = await startFakeUpstream((_req, res) =>
      sendJson(res, 400, {
        code: 400,
        reason: 'BadRequest',
        message: 'model not supported',
        metadata: { trace_id: 't' },
      }),
    );
    try {
      const out = sink();
      await expect(
        runSmokeUpstream({ ...FAST, UPSTREAM_VD_BASE_URL: vendor.baseUrl, UPSTREAM_VD_API_KEY: 'k' }, out, sink()),
      ).resolves.toBe(1);
      expect(out.text()).toMatch(
        /vd\s+create\s+answer\s+refused: HTTP 400 BadRequest: model not supported\s+the task accepted\s+MISMATCH/,
      );
    } finally {
      await vendor.close();
    }
  });
});
