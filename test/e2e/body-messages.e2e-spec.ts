import { Harness, TestAccount, startGateway } from '../support/gateway-harness';

/** Messages about the body itself say what to do: an empty body says so, broken JSON says where. */
describe('body messages', () => {
  let gw: Harness;
  let caller: TestAccount;
  beforeAll(async () => {
    gw = await startGateway();
    caller = await gw.admin.account({ models: ['vdq3'] });
  });
  afterAll(() => gw.close());

  // A good key: a wrong one is refused before the body is read.
  const json = (path: string) =>
    gw.http().post(path).set('Authorization', `Bearer ${caller.key}`).set('Content-Type', 'application/json');

  it('an empty body with the JSON Content-Type is "empty", in the family’s error shape', async () => {
    const vd = await json('/vd/ent/v2/reference2video').send('').expect(400);
    expect(vd.body).toMatchObject({
      error: { code: 'invalid_request', param: null, message: 'The request body is empty; send a JSON object.' },
    });
    const ax = await json('/ax/api/v1/services/aigc/video-generation/video-synthesis').expect(400);
    expect(ax.body).toMatchObject({
      code: 'InvalidParameter',
      error: { code: 'invalid_request', message: 'The request body is empty; send a JSON object.' },
    });
  });

  it('broken JSON names the line and column, never echoing the body', async () => {
    const res = await json('/kl/v1/videos/multi-elements')
      .send('{\n  "session_id": "sess_private_123"\n  "edit_mode": "addition"\n}')
      .expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: null });
    expect(res.body.error.message).toBe(
      "The request body is not valid JSON: expected ',' or '}' after a property value, found '\"' at line 3, column 3 (character 40).",
    );
    expect(JSON.stringify(res.body)).not.toContain('sess_private_123');
  });

  it('an upstream callback with an empty body is not refused for it (its body is not read)', async () => {
    const res = await gw
      .http()
      .post('/callbacks/upstream/unknown-token-0123456789')
      .set('Content-Type', 'application/json')
      .send('')
      .expect(404);
    expect(res.body.error.message).not.toMatch(/empty/);
  });

  it('the usual body (plain JSON type, a length) reads exactly as any other JSON body does', async () => {
    // `application/json` takes the gateway's own reader; `Application/JSON` goes through body-parser.
    const answer = async (type: string, body: string) => {
      const res = await gw
        .http()
        .post('/vd/ent/v2/reference2video')
        .set('Authorization', `Bearer ${caller.key}`)
        .set('Content-Type', type)
        .send(body);
      return { status: res.status, error: res.body.error };
    };
    const read = await answer('application/json', '\uFEFF{"model": "vdq3", "prompt": "@cat"}');
    expect(read.status).toBe(400);
    expect(read.error.param).toBe('subjects');
    for (const body of ['\uFEFF{"model": "vdq3"}', '{"model": 5}', '  \n ', '{"model": 5', '[]', '"text"']) {
      expect(await answer('application/json', body)).toEqual(await answer('Application/JSON', body));
    }
  });
});
