import { resultStorageKey } from '../../src/core/result-keeping/result-slots';
import { startSimulator } from '../../src/simulator/simulator';
import { TestAccount } from '../support/gateway-harness';
import { GATEWAY_RESULT_URL, SAMPLE_MP4, getResult, resultPath } from '../support/results';
import { TestS3, startTestS3, useTestS3Credentials } from '../support/s3';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';

const AX_CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const SIM_TTL_MS = 2500;

/**
 * RESULT_STORE=s3 against s3rver on loopback (standing in for AWS S3, MinIO or R2): kept copies
 * outlive the upstream's, streamed through the gateway (`proxy`) or handed out as a short
 * presigned URL (`redirect`).
 */
describe.each([['proxy'], ['redirect']])('kept results in an S3-compatible store (RESULT_SERVE=%s)', (serve) => {
  let s3: TestS3;
  let gw: SimulatedGateway;
  let acct: TestAccount;
  let restoreCredentials: () => void;

  beforeAll(async () => {
    restoreCredentials = useTestS3Credentials();
    s3 = await startTestS3();
    const sim = await startSimulator({ taskMs: 100, resultTtlMs: SIM_TTL_MS });
    gw = await startSimulatedGateway({ sim, env: { ...s3.env, RESULT_SERVE: serve } });
    acct = await gw.admin.account({ models: ['wx2.7-r2v'] });
  });
  afterAll(async () => {
    await gw.close();
    await gw.sim.close();
    await s3.close();
    restoreCredentials();
  });

  it('keeps the file in the bucket and serves it after the upstream copy expired', async () => {
    const res = await gw
      .http()
      .post(AX_CREATE)
      .set(...bearer(acct))
      .send({
        model: 'wx2.7-r2v',
        input: { prompt: 'Image 1 walks', media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
      })
      .expect(200);
    const id = res.body.output.task_id as string;
    const url = await eventually(async () => {
      const q = await gw
        .http()
        .get(`/ax/api/v1/tasks/${id}`)
        .set(...bearer(acct))
        .expect(200);
      return q.body.output.task_status === 'SUCCEEDED' ? (q.body.output.video_url as string) : null;
    });
    expect(url).toMatch(GATEWAY_RESULT_URL);
    await eventually(async () => {
      const view = await gw.admin.get(`/admin/v1/tasks/${id}/results`).expect(200);
      return view.body.files[0]?.status === 'stored';
    }, 8000);
    // The object is in the bucket, under the gateway's own names.
    // (s3rver answers anonymous reads; a real bucket would not.)
    const object = await fetch(`${s3.endpoint}/${s3.bucket}/${resultStorageKey(id, 'v0')}`);
    expect(object.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await object.arrayBuffer()), SAMPLE_MP4)).toBe(0);
    await new Promise((r) => setTimeout(r, SIM_TTL_MS + 200));

    if (serve === 'proxy') {
      const whole = await getResult(gw.http, url).expect(200);
      expect(Buffer.compare(whole.body as Buffer, SAMPLE_MP4)).toBe(0);
      expect(whole.headers).toMatchObject({ 'content-type': 'video/mp4', 'accept-ranges': 'bytes' });
      expect(whole.headers.etag).toBeTruthy();
      const part = await getResult(gw.http, url, 'bytes=4-11').expect(206);
      expect(part.headers['content-range']).toBe(`bytes 4-11/${SAMPLE_MP4.length}`);
      expect(Buffer.compare(part.body as Buffer, SAMPLE_MP4.subarray(4, 12))).toBe(0);
      await getResult(gw.http, url, `bytes=${SAMPLE_MP4.length + 1}-`).expect(416);
      const head = await gw.http().head(resultPath(url)).expect(200);
      expect(head.headers['content-length']).toBe(String(SAMPLE_MP4.length));
    } else {
      const redirect = await gw.http().get(resultPath(url)).expect(302);
      const location = redirect.headers.location as string;
      expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/${resultStorageKey(id, 'v0')}?`)).toBe(true);
      expect(location).toMatch(/X-Amz-Expires=60/);
      const fetched = await fetch(location);
      expect(fetched.status).toBe(200);
      expect(Buffer.compare(Buffer.from(await fetched.arrayBuffer()), SAMPLE_MP4)).toBe(0);
    }
  });
});
