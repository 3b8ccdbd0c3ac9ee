import { DataSource } from 'typeorm';
import { ADMIN_TOKEN, Harness, startGateway } from '../support/gateway-harness';

describe('platform: errors, request ids, health, metrics, docs', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.close());

  it('answers an unknown route with 404 in the error object and a request id', async () => {
    const res = await gw.http().get('/nope').expect(404);
    expect(res.body).toEqual({
      error: { message: expect.any(String), type: 'not_found_error', param: null, code: 'not_found' },
    });
    expect(res.headers['x-request-id']).toMatch(/.{8,}/);
  });

  it('registers every family route before the operator and callback routes (Express tries routes in order)', () => {
    const express = gw.app.getHttpAdapter().getInstance() as { router: { stack: Array<{ route?: { path: string } }> } };
    const paths = express.router.stack.flatMap((layer) => (layer.route ? [layer.route.path] : []));
    const lastFamily = paths.reduce((last, path, i) => (/^\/(kl|ax|vd)\//.test(path) ? i : last), -1);
    const firstOperator = paths.findIndex((path) => /^\/(admin|callbacks)\//.test(path));
    expect(lastFamily).toBeGreaterThan(0);
    expect(firstOperator).toBeGreaterThan(lastFamily);
  });

  it('adds each family’s native fields to its errors', async () => {
    const kl = await gw.http().get('/kl/v1/nothing-here').expect(404);
    expect(kl.body).toMatchObject({
      code: 1203,
      message: expect.any(String),
      request_id: kl.headers['x-request-id'],
      data: null,
      error: { code: 'not_found' },
    });
    const ax = await gw.http().get('/ax/api/v1/nothing-here').expect(404);
    expect(ax.body).toMatchObject({
      code: 'NotFound',
      request_id: ax.headers['x-request-id'],
      error: { code: 'not_found' },
    });
    const vd = await gw.http().get('/vd/ent/v2/nothing-here').expect(404);
    expect(vd.body).toMatchObject({
      code: 404,
      reason: 'TaskNotFound',
      metadata: { trace_id: vd.headers['x-request-id'] },
      error: { code: 'not_found' },
    });
  });

  it('keeps a sane incoming X-Request-Id', async () => {
    const res = await gw.http().get('/healthz').set('X-Request-Id', 'trace-abc-12345').expect(200);
    expect(res.headers['x-request-id']).toBe('trace-abc-12345');
  });

  it('writes Server-Timing on every response', async () => {
    const res = await gw.http().get('/healthz').expect(200);
    expect(res.headers['server-timing']).toMatch(/^gw;dur=\d+\.\d$/);
  });

  it('refuses input no route can use with a 400, never a 500: deep nesting, NUL characters in a body or a path', async () => {
    const caller = await gw.admin.account({ models: ['vdq3', 'wx2.7-r2v'] });
    // Written by hand: JSON.stringify itself would run out of stack at this depth.
    const deep = `{"model":"vdq3","prompt":"x","images":[${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}]}`;
    const nested = await gw
      .http()
      .post('/vd/ent/v2/reference2video')
      .set('Authorization', `Bearer ${caller.key}`)
      .set('Content-Type', 'application/json')
      .send(deep)
      .expect(400);
    expect(nested.body).toMatchObject({ code: 400, reason: 'BadRequest', error: { code: 'invalid_request' } });
    const shallow = `{"model":"vdq3","prompt":"x","images":[${'{"a":'.repeat(40)}1${'}'.repeat(40)}]}`;
    const tooDeep = await gw
      .http()
      .post('/vd/ent/v2/reference2video')
      .set('Authorization', `Bearer ${caller.key}`)
      .set('Content-Type', 'application/json')
      .send(shallow)
      .expect(400);
    expect(tooDeep.body.error.message).toMatch(/nested deeper/);
    const nul = await gw
      .http()
      .post('/ax/api/v1/services/aigc/video-generation/video-synthesis')
      .set('Authorization', `Bearer ${caller.key}`)
      .send({ model: 'wx2.7-r2v', input: { prompt: 'a\u0000b' } })
      .expect(400);
    expect(nul.body).toMatchObject({ code: 'InvalidParameter', error: { param: 'input.prompt' } });
    const path = await gw.http().get('/ax/api/v1/tasks/%00').set('Authorization', 'Bearer vgw_x').expect(400);
    expect(path.body.error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/NUL/) });
  });

  it('rejects POST without a JSON Content-Type', async () => {
    const res = await gw
      .http()
      .post('/admin/v1/accounts')
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .set('Content-Type', 'text/plain')
      .send('name=x')
      .expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', type: 'invalid_request_error' });
    expect(res.body.error.message).toMatch(/Content-Type/);
  });

  it('checks the key first: no key and no Content-Type (or a broken body) is 401, not 400', async () => {
    const create = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
    const bare = await gw.http().post(create).send('not json').expect(401);
    expect(bare.body).toMatchObject({ code: 'InvalidApiKey', error: { code: 'invalid_api_key' } });
    await gw
      .http()
      .post('/vd/ent/v2/reference2video')
      .set('Content-Type', 'application/json')
      .send('{"model": ')
      .expect(401);
    // A wrong key too; with a good key, the body rules apply.
    await gw
      .http()
      .post(create)
      .set('Authorization', 'Bearer sk-any')
      .set('Content-Type', 'text/plain')
      .send('x')
      .expect(401);
    const caller = await gw.admin.account({ models: ['wx2.7-r2v'] });
    await gw
      .http()
      .post(create)
      .set('Authorization', `Bearer ${caller.key}`)
      .set('Content-Type', 'text/plain')
      .send('x')
      .expect(400);
    await gw.http().post('/admin/v1/accounts').set('Content-Type', 'text/plain').send('x').expect(401);
  });

  it('rejects malformed JSON with 400', async () => {
    const caller = await gw.admin.account({ models: ['wx2.7-r2v'] });
    const res = await gw
      .http()
      .post('/ax/api/v1/services/aigc/video-generation/video-synthesis')
      .set('Authorization', `Bearer ${caller.key}`)
      .set('Content-Type', 'application/json')
      .send('{"model": ')
      .expect(400);
    expect(res.body).toMatchObject({ code: 'InvalidParameter', error: { code: 'invalid_request' } });
  });

  it('rejects a body above the limit with 413', async () => {
    const small = await startGateway({ env: { BODY_LIMIT_BYTES: '2048' } });
    try {
      const caller = await small.admin.account({ models: ['vdq3'] });
      const res = await small
        .http()
        .post('/vd/ent/v2/reference2video')
        .set('Authorization', `Bearer ${caller.key}`)
        .set('Content-Type', 'application/json')
        .send({ prompt: 'x'.repeat(5000) })
        .expect(413);
      expect(res.body).toMatchObject({ code: 413, reason: 'BadRequest', error: { code: 'request_too_large' } });
    } finally {
      await small.close();
    }
  });

  it('opens the PostgreSQL pool DATABASE_POOL_SIZE asks for, and serves concurrent requests through a small one', async () => {
    const small = await startGateway({ env: { DATABASE_POOL_SIZE: '2' } });
    try {
      const driver = small.app.get(DataSource).driver as unknown as { master?: { options: { max: number } } };
      // SQLite has one connection in process and no pool; on PostgreSQL (CI's second pass) the pool is sized.
      if (small.config.DATABASE_URL?.startsWith('postgres')) expect(driver.master?.options.max).toBe(2);
      else expect(driver.master).toBeUndefined();
      const answers = await Promise.all(Array.from({ length: 12 }, () => small.http().get('/readyz')));
      expect(answers.map((res) => [res.status, res.body.checks?.database])).toEqual(
        Array.from({ length: 12 }, () => [200, 'ok']),
      );
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
    expect(Object.keys(res.body.components.schemas)).toEqual(
      expect.arrayContaining(['AxNewCreateBodyDto', 'AxOldCreateBodyDto', 'VdSubjectModeRequestDto']),
    );
  });
});
