import { ADMIN_TOKEN, Harness, startGateway } from '../support/gateway-harness';

describe('platform: errors, request ids, health, metrics, docs', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.close());

  it('answers an unknown route with 404 in the error object and a request id', async () => {
    const res = await gw.http().get('/nope').expect(404);
    expect(res.body).toEqual({ error: { message: expect.any(String), type: 'not_found_error', param: null, code: 'not_found' } });
    expect(res.headers['x-request-id']).toMatch(/.{8,}/);
  });

  it('adds each family’s native fields to its errors', async () => {
    const kl = await gw.http().get('/kl/v1/nothing-here').expect(404);
    expect(kl.body).toMatchObject({ code: 1203, message: expect.any(String), request_id: kl.headers['x-request-id'], data: null, error: { code: 'not_found' } });
    const ax = await gw.http().get('/ax/api/v1/nothing-here').expect(404);
    expect(ax.body).toMatchObject({ code: 'NotFound', request_id: ax.headers['x-request-id'], error: { code: 'not_found' } });
    const vd = await gw.http().get('/vd/ent/v2/nothing-here').expect(404);
    expect(vd.body).toMatchObject({ code: 404, reason: 'TaskNotFound', metadata: { trace_id: vd.headers['x-request-id'] }, error: { code: 'not_found' } });
  });

  it('keeps a sane incoming X-Request-Id', async () => {
    const res = await gw.http().get('/healthz').set('X-Request-Id', 'trace-abc-12345').expect(200);
    expect(res.headers['x-request-id']).toBe('trace-abc-12345');
  });

  it('writes Server-Timing on every response', async () => {
    const res = await gw.http().get('/healthz').expect(200);
    expect(res.headers['server-timing']).toMatch(/^gw;dur=\d+\.\d$/);
  });

  it('rejects POST without a JSON Content-Type', async () => {
    const res = await gw.http().post('/admin/v1/accounts').set('Authorization', `Bearer ${ADMIN_TOKEN}`).set('Content-Type', 'text/plain').send('name=x').expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', type: 'invalid_request_error' });
    expect(res.body.error.message).toMatch(/Content-Type/);
  });

  it('rejects malformed JSON with 400', async () => {
    const res = await gw.http().post('/ax/api/v1/services/aigc/video-generation/video-synthesis').set('Content-Type', 'application/json').send('{"model": ').expect(400);
    expect(res.body).toMatchObject({ code: 'InvalidParameter', error: { code: 'invalid_request' } });
  });

  it('rejects a body above the limit with 413', async () => {
    const small = await startGateway({ env: { BODY_LIMIT_BYTES: '2048' } });
    try {
      const res = await small
        .http()
        .post('/vd/ent/v2/reference2video')
        .set('Content-Type', 'application/json')
        .send({ prompt: 'x'.repeat(5000) })
        .expect(413);
      expect(res.body).toMatchObject({ code: 413, reason: 'BadRequest', error: { code: 'request_too_large' } });
    } finally {
      await small.close();
    }
  });

  it('serves health, readiness and metrics', async () => {
    await gw.http().get('/healthz').expect(200, { status: 'ok' });
    const ready = await gw.http().get('/readyz').expect(200);
    expect(ready.body.checks.database).toBe('ok');
    const metrics = await gw.http().get('/metrics').expect(200);
    expect(metrics.text).toContain('gateway_http_requests_total');
  });

  it('serves the OpenAPI document', async () => {
    const res = await gw.http().get('/docs-json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/admin/v1/accounts',
        '/ax/api/v1/services/aigc/video-generation/video-synthesis',
        '/ax/api/v1/tasks/{task_id}',
        '/vd/ent/v2/reference2video',
        '/vd/ent/v2/tasks/{id}/creations',
      ]),
    );
    expect(Object.keys(res.body.components.schemas)).toEqual(expect.arrayContaining(['AxNewCreateBodyDto', 'AxOldCreateBodyDto', 'VdSubjectModeRequestDto']));
  });
});
