import { ADMIN_TOKEN, Harness, startGateway } from '../support/gateway-harness';

describe('admin API', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.close());

  it('refuses a missing or wrong admin token with 401', async () => {
    const none = await gw.http().get('/admin/v1/ledger/verify').expect(401);
    expect(none.body.error).toMatchObject({ code: 'invalid_api_key', type: 'authentication_error' });
    await gw.http().get('/admin/v1/ledger/verify').set('Authorization', `Bearer ${ADMIN_TOKEN}x`).expect(401);
  });

  it('creates an account with an opening balance recorded in the ledger', async () => {
    const res = await gw.admin
      .post('/admin/v1/accounts', { name: 'Acme', balance: 5000, rate_limit_rpm: 100, max_concurrent_tasks: 3 })
      .expect(201);
    expect(res.body).toMatchObject({
      name: 'Acme',
      balance: 5000,
      held: 0,
      rate_limit_rpm: 100,
      max_concurrent_tasks: 3,
      disabled: false,
      models: [],
      keys: [],
    });
    expect(res.body.webhook_secret).toMatch(/^whsec_/);
    const verify = await gw.admin.get('/admin/v1/ledger/verify').expect(200);
    expect(verify.body).toMatchObject({ ok: true, mismatches: [] });
    expect(verify.body.accounts_checked).toBeGreaterThanOrEqual(1);
  });

  it('validates account input and names the field', async () => {
    const res = await gw.admin.post('/admin/v1/accounts', { name: 'x', balance: -1 }).expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'balance' });
    const wrongType = await gw.admin.post('/admin/v1/accounts', { name: 'x', balance: 'lots' }).expect(400);
    expect(wrongType.body.error).toMatchObject({ param: 'balance', message: expect.stringMatching(/integer/) });
    const unknown = await gw.admin.post('/admin/v1/accounts', { name: 'x', colour: 'red' }).expect(400);
    expect(unknown.body.error.param).toBe('colour');
  });

  it('shows a key secret once and only its prefix afterwards', async () => {
    const acct = await gw.admin.post('/admin/v1/accounts', { name: 'Keys' }).expect(201);
    const key = await gw.admin
      .post(`/admin/v1/accounts/${acct.body.id}/keys`, { name: 'ci', expires_at: '2099-01-01T00:00:00Z' })
      .expect(201);
    expect(key.body.key).toMatch(/^vgw_/);
    expect(key.body.key.startsWith(key.body.prefix)).toBe(true);
    const details = await gw.admin.get(`/admin/v1/accounts/${acct.body.id}`).expect(200);
    expect(JSON.stringify(details.body)).not.toContain(key.body.key);
    expect(details.body.keys[0]).toMatchObject({
      id: key.body.id,
      prefix: key.body.prefix,
      expires_at: '2099-01-01T00:00:00.000Z',
    });
  });

  it('takes a key expiry as ISO 8601 or whole Unix seconds, and refuses one no response could print', async () => {
    const acct = await gw.admin.post('/admin/v1/accounts', { name: 'Expiry' }).expect(201);
    const keys = `/admin/v1/accounts/${acct.body.id}/keys`;
    for (const expires_at of [2 ** 53, 1e12, -1, 1.5, ['2031-01-01'], true, 'Jan 1 2031', '2031-02-30']) {
      const res = await gw.admin.post(keys, { expires_at }).expect(400);
      expect(res.body.error).toMatchObject({
        param: 'expires_at',
        message: 'expires_at must be an ISO 8601 time or Unix seconds',
      });
    }
    expect((await gw.admin.post(keys, { expires_at: 4102444800 }).expect(201)).body.expires_at).toBe(
      '2100-01-01T00:00:00.000Z',
    );
    // The account still reads and changes: no refused expiry was stored.
    const account = await gw.admin.get(`/admin/v1/accounts/${acct.body.id}`).expect(200);
    expect(account.body.keys).toHaveLength(1);
    await gw.admin.post(`/admin/v1/accounts/${acct.body.id}/balance`, { delta: 10, reason: 'still works' }).expect(200);
  });

  it('replaces grants, with all capabilities by default and unknown models refused', async () => {
    const acct = await gw.admin.post('/admin/v1/accounts', { name: 'Grants' }).expect(201);
    const res = await gw.admin
      .put(`/admin/v1/accounts/${acct.body.id}/models`, {
        models: [{ model: 'kl-v1-6' }, { model: 'vdq3', capabilities: ['reference2video'] }],
      })
      .expect(200);
    expect(res.body.models).toEqual([
      { model: 'kl-v1-6', capabilities: ['editing.selection', 'editing.task', 'voices'] },
      { model: 'vdq3', capabilities: ['reference2video'] },
    ]);
    const bad = await gw.admin
      .put(`/admin/v1/accounts/${acct.body.id}/models`, { models: [{ model: 'gpt-video' }] })
      .expect(404);
    expect(bad.body.error).toMatchObject({ code: 'model_not_found', param: 'models[0].model' });
    const wrongCap = await gw.admin
      .put(`/admin/v1/accounts/${acct.body.id}/models`, { models: [{ model: 'vdq3', capabilities: ['voices'] }] })
      .expect(400);
    expect(wrongCap.body.error.param).toBe('models[0].capabilities[0]');
  });

  it('refuses a name of only spaces for an account, a key and an operator', async () => {
    const acct = await gw.admin.post('/admin/v1/accounts', { name: 'Named' }).expect(201);
    for (const [method, path, body] of [
      ['post', '/admin/v1/accounts', { name: '   ' }],
      ['patch', `/admin/v1/accounts/${acct.body.id}`, { name: '\t' }],
      ['post', `/admin/v1/accounts/${acct.body.id}/keys`, { name: ' ' }],
      ['post', '/admin/v1/operators', { name: '  ', role: 'viewer' }],
    ] as const) {
      const res = await gw.admin[method](path, body).expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'name' });
    }
    expect((await gw.admin.get(`/admin/v1/accounts/${acct.body.id}`).expect(200)).body).toMatchObject({
      name: 'Named',
      keys: [],
    });
  });

  it('refuses a list that names the same thing twice', async () => {
    const acct = await gw.admin.post('/admin/v1/accounts', { name: 'Twice' }).expect(201);
    const grants = `/admin/v1/accounts/${acct.body.id}/models`;
    for (const [body, param] of [
      [{ models: [{ model: 'vdq3' }, { model: 'vdq3', capabilities: ['reference2video'] }] }, 'models[1].model'],
      [{ models: [{ model: 'kl-v1-6', capabilities: ['voices', 'voices'] }] }, 'models[0].capabilities[1]'],
    ] as const) {
      const res = await gw.admin.put(grants, body).expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    }
    const key = await gw.admin
      .post(`/admin/v1/accounts/${acct.body.id}/keys`, { models: ['vdq3', 'vdq3'] })
      .expect(400);
    expect(key.body.error).toMatchObject({ code: 'invalid_request', param: 'models' });
    const account = await gw.admin.get(`/admin/v1/accounts/${acct.body.id}`).expect(200);
    expect(account.body).toMatchObject({ models: [], keys: [] });
  });

  it('credits and debits the balance through the ledger, never below zero', async () => {
    const acct = await gw.admin.post('/admin/v1/accounts', { name: 'Money', balance: 100 }).expect(201);
    const credited = await gw.admin
      .post(`/admin/v1/accounts/${acct.body.id}/balance`, { delta: 50, reason: 'top-up' })
      .expect(200);
    expect(credited.body.balance).toBe(150);
    const debited = await gw.admin
      .post(`/admin/v1/accounts/${acct.body.id}/balance`, { delta: -20, reason: 'refund' })
      .expect(200);
    expect(debited.body.balance).toBe(130);
    const over = await gw.admin
      .post(`/admin/v1/accounts/${acct.body.id}/balance`, { delta: -1000, reason: 'too much' })
      .expect(400);
    expect(over.body.error.param).toBe('delta');
    await gw.admin.post(`/admin/v1/accounts/${acct.body.id}/balance`, { delta: 0, reason: 'nothing' }).expect(400);
    expect((await gw.admin.get('/admin/v1/ledger/verify')).body.ok).toBe(true);
  });

  it('never credits an account past the largest exact amount, however many credits', async () => {
    const max = Number.MAX_SAFE_INTEGER;
    const acct = await gw.admin.post('/admin/v1/accounts', { name: 'Full', balance: max - 10 }).expect(201);
    const path = `/admin/v1/accounts/${acct.body.id}/balance`;
    expect((await gw.admin.post(path, { delta: 10, reason: 'to the brim' }).expect(200)).body.balance).toBe(max);
    const over = await gw.admin.post(path, { delta: 1, reason: 'one more' }).expect(400);
    expect(over.body.error).toMatchObject({ code: 'invalid_request', param: 'delta' });
    expect(over.body.error.message).toContain(String(max));
    expect((await gw.admin.post(path, { delta: -1, reason: 'room' }).expect(200)).body.balance).toBe(max - 1);
    expect((await gw.admin.get(`/admin/v1/accounts/${acct.body.id}`).expect(200)).body.balance).toBe(max - 1);
    expect((await gw.admin.get('/admin/v1/ledger/verify').expect(200)).body.ok).toBe(true);
  });

  it('refuses a body that is not a JSON object, or holds a prototype key, on every route taking one', async () => {
    const acct = await gw.admin.post('/admin/v1/accounts', { name: 'Shapes', balance: 100 }).expect(201);
    const operator = await gw.admin.post('/admin/v1/operators', { name: 'shapes', role: 'viewer' }).expect(201);
    const routes: Array<['post' | 'put' | 'patch', string]> = [
      ['post', '/admin/v1/accounts'],
      ['patch', `/admin/v1/accounts/${acct.body.id}`],
      ['post', `/admin/v1/accounts/${acct.body.id}/keys`],
      ['put', `/admin/v1/accounts/${acct.body.id}/models`],
      ['post', `/admin/v1/accounts/${acct.body.id}/balance`],
      // The body is checked before the channel is looked up (this gateway has none).
      ['patch', '/admin/v1/channels/any-channel'],
      ['post', '/admin/v1/operators'],
      ['patch', `/admin/v1/operators/${operator.body.id}`],
    ];
    const send = (method: 'post' | 'put' | 'patch', path: string, raw: string) =>
      gw
        .http()
        [method](path)
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
        .set('Content-Type', 'application/json')
        .send(raw);
    for (const [method, path] of routes) {
      for (const raw of ['null', '[]', '[{"name":"x"}]', '7', '"x"', 'true']) {
        const res = await send(method, path, raw).expect(400);
        expect(res.body.error).toEqual({
          message: 'The request body must be a JSON object.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_request',
        });
      }
      const prototypeKey = await send(method, path, '{"name":"x","constructor":{"prototype":{"x":1}}}').expect(400);
      expect(prototypeKey.body.error).toMatchObject({ param: 'constructor', message: "Unknown field 'constructor'." });
    }
    const after = await gw.admin.get(`/admin/v1/accounts/${acct.body.id}`).expect(200);
    expect(after.body).toMatchObject({ name: 'Shapes', balance: 100, keys: [], models: [] });
  });

  it('refuses any field sent to a route that takes an empty object, and changes nothing', async () => {
    const operator = await gw.admin.post('/admin/v1/operators', { name: 'empty', role: 'viewer' }).expect(201);
    // Each body is checked before its target is looked up: an unknown task or channel is still a 400 here.
    for (const path of [
      `/admin/v1/operators/${operator.body.id}/token`,
      '/admin/v1/channels/any-channel/check',
      '/admin/v1/tasks/task_unknown/callbacks/redeliver',
      '/admin/v1/tasks/task_unknown/results/keep',
    ]) {
      const res = await gw.admin.post(path, { x: 1 }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'x' });
      const notObject = await gw
        .http()
        .post(path)
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
        .set('Content-Type', 'application/json')
        .send('[]')
        .expect(400);
      expect(notObject.body.error.message).toBe('The request body must be a JSON object.');
    }
    const me = await gw.http().get('/admin/v1/me').set('Authorization', `Bearer ${operator.body.token}`);
    expect(me.status).toBe(200);
  });

  it('takes a route that takes an empty object sent with no body at all (a bare POST), role checked first', async () => {
    const viewer = await gw.admin.post('/admin/v1/operators', { name: 'bare', role: 'viewer' }).expect(201);
    const bare = (path: string, token = ADMIN_TOKEN) => gw.http().post(path).set('Authorization', `Bearer ${token}`);
    const rotated = await bare(`/admin/v1/operators/${viewer.body.id}/token`).expect(200);
    expect(rotated.body.token).toMatch(/^\S+$/);
    // Past the body step, each answers as with `{}`: the unknown task is 404.
    await bare('/admin/v1/tasks/task_unknown/callbacks/redeliver').expect(404);
    await bare('/admin/v1/tasks/task_unknown/results/keep').expect(404);
    // A JSON Content-Type with no body is no body too.
    await bare('/admin/v1/tasks/task_unknown/results/keep').set('Content-Type', 'application/json').expect(404);
    // A viewer is refused for its role, not for the missing body.
    const refused = await bare('/admin/v1/channels/any-channel/check', rotated.body.token).expect(403);
    expect(refused.body.error).toMatchObject({ code: 'permission_denied' });
  });

  it('refuses null for a field that cannot hold it; only the limits are cleared with null', async () => {
    const acct = await gw.admin
      .post('/admin/v1/accounts', { name: 'Nulls', rate_limit_rpm: 60, max_concurrent_tasks: 2 })
      .expect(201);
    const operator = await gw.admin.post('/admin/v1/operators', { name: 'nulls', role: 'viewer' }).expect(201);
    const refused: Array<['post' | 'patch', string, Record<string, unknown>, string]> = [
      ['post', '/admin/v1/accounts', { name: 'x', balance: null }, 'balance'],
      ['patch', `/admin/v1/accounts/${acct.body.id}`, { name: null }, 'name'],
      ['patch', `/admin/v1/accounts/${acct.body.id}`, { disabled: null }, 'disabled'],
      ['post', `/admin/v1/accounts/${acct.body.id}/keys`, { name: null }, 'name'],
      ['patch', `/admin/v1/operators/${operator.body.id}`, { role: null }, 'role'],
      ['patch', `/admin/v1/operators/${operator.body.id}`, { disabled: null }, 'disabled'],
      ['patch', '/admin/v1/channels/any-channel', { weight: null }, 'weight'],
    ];
    for (const [method, path, body, param] of refused) {
      const res = await gw.admin[method](path, body).expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    }
    const cleared = await gw.admin
      .patch(`/admin/v1/accounts/${acct.body.id}`, { rate_limit_rpm: null, max_concurrent_tasks: null })
      .expect(200);
    expect(cleared.body).toMatchObject({
      name: 'Nulls',
      disabled: false,
      rate_limit_rpm: null,
      max_concurrent_tasks: null,
    });
    const key = await gw.admin.post(`/admin/v1/accounts/${acct.body.id}/keys`, { expires_at: null, models: null });
    expect(key.status).toBe(201);
    expect(key.body).toMatchObject({ expires_at: null, models: null });
  });

  it('answers 404 not_found for an unknown account or key', async () => {
    const res = await gw.admin.get('/admin/v1/accounts/acct_missing').expect(404);
    expect(res.body.error.code).toBe('not_found');
    await gw.admin.delete('/admin/v1/keys/key_missing').expect(404);
  });
});
