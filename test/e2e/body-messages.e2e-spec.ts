import { Harness, TestAccount, startGateway } from '../support/gateway-harness';
import { INHERITED_MEMBER_KEYS } from '../fixtures/body-keys';

/** Messages about the body itself say what to do: an empty body says so, broken JSON says where. */
describe('body messages', () => {
  let gw: Harness;
  let caller: TestAccount;
  /** Has every family's models, so bodies reach the family rules. */
  let all: TestAccount;
  beforeAll(async () => {
    gw = await startGateway();
    caller = await gw.admin.account({ models: ['vdq3'] });
    all = await gw.admin.account({ models: ['kl-v1', 'kl-v1-6', 'wx2.7-r2v', 'wx2.6-r2v', 'vdq3', 'vdq2-pro'] });
  });
  afterAll(() => gw.close());

  // A good key: a wrong one is refused before the body is read.
  const json = (path: string, account: TestAccount = caller) =>
    gw.http().post(path).set('Authorization', `Bearer ${account.key}`).set('Content-Type', 'application/json');

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

  const AX = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
  const VD = '/vd/ent/v2/reference2video';
  const KL = '/kl/v1/videos/multi-elements';

  it('a body that is not a JSON object is told so on every create route, before its model is looked for', async () => {
    for (const path of [KL, '/kl/v1/general/custom-voices', AX, VD, '/v1/videos']) {
      for (const body of ['[]', 'null', '"x"', '5', '[{"model":"vdq3"}]']) {
        const res = await json(path, all).send(body);
        expect({ path, body, status: res.status, error: res.body.error }).toEqual({
          path,
          body,
          status: 400,
          error: {
            code: 'invalid_request',
            type: 'invalid_request_error',
            param: null,
            message: 'The request body must be a JSON object.',
          },
        });
      }
    }
  });

  it('a field named after a member every object inherits is an unknown field, at any depth, on every create route', async () => {
    const post = (path: string, body: unknown) =>
      gw
        .http()
        .post(path)
        .set('Authorization', `Bearer ${all.key}`)
        .send(body as object);
    const image = 'https://example.com/a.png';
    const klEdit = {
      session_id: 'sess_x',
      edit_mode: 'addition',
      image_list: [{ image }],
      prompt: 'add <<<image_1>>>',
    };
    const axNew = {
      model: 'wx2.7-r2v',
      input: { prompt: 'image 1', media: [{ type: 'reference_image', url: image }] },
      parameters: { duration: 5 },
    };
    const axOld = { model: 'wx2.6-r2v', input: { prompt: 'character1', reference_urls: [image] } };
    const vdSubject = { model: 'vdq2-pro', prompt: '@cat', subjects: [{ name: 'cat', images: [image] }] };
    const vdImages = { model: 'vdq3', prompt: 'a cat', images: [image] };
    const face = { model: 'vdq3', prompt: 'a cat', input_reference: { image_url: image } };
    const faceAx = { model: 'wx2.7-r2v', prompt: 'image 1', input_reference: { image_url: image }, parameters: {} };
    const cases: Array<[string, Record<string, unknown>, string]> = [];
    for (const key of INHERITED_MEMBER_KEYS) {
      cases.push(
        [KL, { ...klEdit, [key]: 1 }, key],
        [KL, { ...klEdit, image_list: [{ image, [key]: 1 }] }, `image_list[0].${key}`],
        [KL, { ...klEdit, watermark_info: { enabled: true, [key]: 1 } }, `watermark_info.${key}`],
        [`${KL}/init-selection`, { video_url: 'https://example.com/v.mp4', [key]: 'x' }, key],
        ['/kl/v1/general/custom-voices', { voice_name: 'n', voice_url: 'https://example.com/v.mp3', [key]: 1 }, key],
        [AX, { ...axNew, [key]: 1 }, key],
        [AX, { ...axNew, input: { ...axNew.input, [key]: 1 } }, `input.${key}`],
        [
          AX,
          { ...axNew, input: { ...axNew.input, media: [{ ...axNew.input.media[0], [key]: 1 }] } },
          `input.media[0].${key}`,
        ],
        [AX, { ...axNew, parameters: { duration: 5, [key]: 1 } }, `parameters.${key}`],
        [AX, { ...axOld, input: { ...axOld.input, [key]: 1 } }, `input.${key}`],
        [VD, { ...vdSubject, [key]: 1 }, key],
        [VD, { ...vdSubject, subjects: [{ ...vdSubject.subjects[0], [key]: 1 }] }, `subjects[0].${key}`],
        [VD, { ...vdImages, [key]: 1 }, key],
        ['/v1/videos', { ...face, [key]: 1 }, key],
        ['/v1/videos', { ...faceAx, parameters: { [key]: 1 } }, `parameters.${key}`],
        ['/v1/videos', { ...face, input_reference: { image_url: image, [key]: 1 } }, `input_reference.${key}`],
      );
    }
    for (const [path, body, param] of cases) {
      const res = await post(path, body);
      expect({ path, param, status: res.status, error: res.body.error }).toEqual({
        path,
        param,
        status: 400,
        error: expect.objectContaining({ code: 'invalid_request', param }),
      });
      // The face's reference also says what it takes.
      expect(res.body.error.message).toMatch(new RegExp(`^Unknown field '${param.replace(/[.[\]]/g, '\\$&')}'[.:]`));
    }
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
