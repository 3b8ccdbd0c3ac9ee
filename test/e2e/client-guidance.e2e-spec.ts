import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestAccount } from '../support/gateway-harness';
import { SimulatedGateway, bearer, startSimulatedGateway } from '../support/simulated-gateway';

const VOICES = '/kl/v1/general/custom-voices';
/** Just under the 1 MiB body limit of these routes (a larger body is 413 before any field is looked at). */
const HUGE_URL = `https://example.com/${'a'.repeat(1000 * 1000)}.mp3`;

/** What a first-time client meets when something goes wrong: every answer says what to do. */
describe('answers that say what to do', () => {
  let gw: SimulatedGateway;
  let kl: TestAccount;
  let vdOnly: TestAccount;

  beforeAll(async () => {
    gw = await startSimulatedGateway();
    kl = await gw.admin.account({ models: ['kl-v1', 'kl-v1-6', 'vdq3', 'wx2.7-r2v'] });
    vdOnly = await gw.admin.account({ models: ['vdq3'] });
  });
  afterAll(() => gw.close());

  const post = (path: string, body: object, account: TestAccount = kl) =>
    gw
      .http()
      .post(path)
      .set(...bearer(account))
      .send(body);
  const get = (path: string, account: TestAccount) =>
    gw
      .http()
      .get(path)
      .set(...bearer(account));

  describe('external_task_id after a failed creation', () => {
    it('an upstream rejection does not hold the ID: the retry with the same ID is created', async () => {
      const refused = await post(VOICES, {
        voice_name: 'N sim:reject',
        voice_url: 'https://example.com/v.mp3',
        external_task_id: 'retry-me',
      });
      expect(refused.status).toBe(400);
      const retried = await post(VOICES, {
        voice_name: 'Narrator',
        voice_url: 'https://example.com/v.mp3',
        external_task_id: 'retry-me',
      }).expect(200);
      expect(retried.body.data.task_info).toEqual({ external_task_id: 'retry-me' });
    });

    it('an ID held by a task names that task', async () => {
      const first = await post(VOICES, {
        voice_name: 'Narrator',
        voice_url: 'https://example.com/v.mp3',
        external_task_id: 'held-1',
      }).expect(200);
      const again = await post(VOICES, {
        voice_name: 'Narrator',
        voice_url: 'https://example.com/v.mp3',
        external_task_id: 'held-1',
      }).expect(400);
      expect(JSON.stringify(again.body)).toContain(`already used by task ${first.body.data.task_id}`);
    });

    it('an ID held by a task the key cannot read is refused without naming that task', async () => {
      const held = await post(VOICES, {
        model_name: 'kl-v1-6',
        voice_name: 'Narrator',
        voice_url: 'https://example.com/v.mp3',
        external_task_id: 'held-by-v16',
      }).expect(200);
      const heldId = held.body.data.task_id as string;
      const made = await gw.admin.post(`/admin/v1/accounts/${kl.id}/keys`, { models: ['kl-v1'] }).expect(201);
      const onlyV1 = { ...kl, key: made.body.key as string };
      await get(`${VOICES}/${heldId}`, onlyV1).expect(404);
      const refused = await post(
        VOICES,
        { voice_name: 'Narrator', voice_url: 'https://example.com/v.mp3', external_task_id: 'held-by-v16' },
        onlyV1,
      ).expect(400);
      expect(refused.body.error).toMatchObject({ code: 'invalid_request', param: 'external_task_id' });
      expect(refused.body.error.message).toBe(
        'external_task_id must be unique for the account; this one is already used by another task of the account.',
      );
      expect(JSON.stringify(refused.body)).not.toContain(heldId);
    });
  });

  it('upstream throttling is 429 with Retry-After and the family’s native code, not 400', async () => {
    const res = await post(VOICES, { voice_name: 'N sim:throttle', voice_url: 'https://example.com/v.mp3' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body.code).toBe(1302);
  });

  it('one capability rule for reads: an account with vd models only reads neither kl nor ax', async () => {
    await get('/kl/v1/videos/multi-elements', vdOnly).expect(403);
    await get(VOICES, vdOnly).expect(403);
    await get('/ax/api/v1/tasks/task_0000000000000000000000000', vdOnly).expect(403);
    await get('/vd/ent/v2/tasks/task_0000000000000000000000000/creations', vdOnly).expect(404);
  });

  describe('every client string is bounded', () => {
    it('a 1 MB voice_url is 400 naming voice_url', async () => {
      const res = await post(VOICES, { voice_name: 'Narrator', voice_url: HUGE_URL }).expect(400);
      expect(JSON.stringify(res.body).length).toBeLessThan(10_000);
      expect(res.body.error).toMatchObject({ param: 'voice_url', message: expect.stringContaining('2048') });
    });

    it('a 1 MB video_url is 400 naming video_url', async () => {
      const res = await post('/kl/v1/videos/multi-elements/init-selection', { video_url: HUGE_URL }).expect(400);
      expect(JSON.stringify(res.body).length).toBeLessThan(10_000);
      expect(res.body.error).toMatchObject({ param: 'video_url', message: expect.stringContaining('2048') });
    });

    it('a 3,000-character callback_url is 400 naming callback_url', async () => {
      const res = await post('/vd/ent/v2/reference2video', {
        model: 'vdq3',
        subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
        prompt: '@cat runs',
        callback_url: `https://example.com/${'h'.repeat(3000)}`,
      }).expect(400);
      expect(res.body.error).toMatchObject({ param: 'callback_url', message: expect.stringContaining('2048') });
    });
  });

  describe('model messages', () => {
    it('an unknown model suggests the closest granted name', async () => {
      const res = await post('/vd/ent/v2/reference2video', { model: 'vdq-3', prompt: 'x' }).expect(404);
      expect(JSON.stringify(res.body)).toContain("Did you mean 'vdq3'?");
    });

    it('a model of another family names the path that serves it', async () => {
      const res = await post('/vd/ent/v2/reference2video', { model: 'wx2.7-r2v', prompt: 'x' }).expect(404);
      expect(JSON.stringify(res.body)).toContain('send it to POST /ax/api/v1/');
    });

    it.each(['/ax/api/v1/services/aigc/video-generation/video-synthesis', '/vd/ent/v2/reference2video', '/v1/videos'])(
      'a kl model sent to %s is 404 naming the kl routes, not 403',
      async (path) => {
        const res = await post(path, { model: 'kl-v1', prompt: 'x' }).expect(404);
        expect(res.body.error).toMatchObject({ code: 'model_not_found', param: 'model' });
        expect(res.body.error.message).toContain(
          "The model 'kl-v1' is not served on this path: it is a family kl model",
        );
        expect(res.body.error.message).toContain('POST /kl/v1/general/custom-voices');
      },
    );

    it('a real model the account was not given is 404 saying it is not enabled, with no guess', async () => {
      const res = await post('/vd/ent/v2/reference2video', { model: 'vdq2', prompt: 'x' }).expect(404);
      expect(res.body.error).toMatchObject({ code: 'model_not_found', param: 'model' });
      expect(res.body.error.message).toBe(
        "The model 'vdq2' exists but is not enabled for this account; ask the operator to enable it.",
      );
    });

    it('a list of the models the key may use says how many it leaves out', async () => {
      const models = ['vdq3-mix', 'vdq3-turbo', 'vdq3', 'vdq2-pro', 'vdq2', 'vdq1', 'vd2.0'];
      const all = await gw.admin.account({
        models: [...models, 'wx2.7-r2v', 'wx2.7-r2v-2026-06-12', 'wx2.6-r2v', 'wx2.6-r2v-flash'],
      });
      const res = await post('/v1/videos', { model: 'completely-different-name', prompt: 'x' }, all).expect(404);
      expect(res.body.error.message).toMatch(/Models this key may use here: (?:[\w.-]+, ){9}[\w.-]+ and 1 more\.$/);
    });
  });

  describe('messages that name the real fault', () => {
    it('a seed that is not a number is a wrong type, not a value out of range', async () => {
      const res = await post('/vd/ent/v2/reference2video', {
        model: 'vdq3',
        images: ['https://example.com/cat.png'],
        prompt: 'a cat',
        seed: 'abc',
      }).expect(400);
      expect(res.body.error).toMatchObject({ param: 'seed', message: 'seed must be an integer number' });
    });

    it('a price table whose version is no number says so (a table without one is numbered next)', async () => {
      const table = (await gw.admin.get('/admin/v1/prices').expect(200)).body;
      table.version = 'two';
      const res = await gw.admin.put('/admin/v1/prices', table).expect(400);
      expect(res.body.error).toMatchObject({ param: 'version', message: 'version must be an integer number' });
    });

    it.each(['vdq3', 'wx2.7-r2v', 'wx2.6-r2v'])(
      '/v1/videos with %s and no input_reference names input_reference, not the family’s own fields',
      async (model) => {
        const both = await gw.admin.account({ models: ['vdq3', 'wx2.7-r2v', 'wx2.6-r2v'] });
        const res = await post('/v1/videos', { model, prompt: 'a cat' }, both).expect(400);
        expect(res.body).toEqual({
          error: {
            message:
              'input_reference is required: {"image_url": "<http(s) or data:image URL>"} or an uploaded image file.',
            type: 'invalid_request_error',
            param: 'input_reference',
            code: 'invalid_request',
          },
        });
      },
    );

    it('voice_id takes an identifier of up to 255 characters, as the API reference says', async () => {
      const post255 = (voiceId: string) => post('/kl/v1/general/delete-voices', { voice_id: voiceId });
      const unknown = await post255(`voice_${'x'.repeat(249)}`).expect(404);
      expect(unknown.body.error).toMatchObject({ code: 'not_found', param: 'voice_id' });
      const long = await post255(`voice_${'x'.repeat(250)}`).expect(400);
      expect(long.body.error).toMatchObject({ param: 'voice_id', message: 'voice_id must be at most 255 characters' });
    });
  });

  it('insufficient_quota states the balance, the amount held and the price of the request', async () => {
    const poor = await gw.admin.account({ models: ['kl-v1'], balance: 1 });
    const res = await post(VOICES, { voice_name: 'Narrator', voice_url: 'https://example.com/v.mp3' }, poor);
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).toMatch(
      /available balance 1, held for tasks in flight 0, price of this request \d+/,
    );
  });
});

describe('truthful docs and safe defaults', () => {
  const root = join(__dirname, '..', '..');

  it('docker-compose.yml has no placeholder admin token: compose refuses to start without a real one', () => {
    const compose = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
    expect(compose).not.toMatch(/change-me/);
    expect(compose).toMatch(/ADMIN_TOKEN: \$\{ADMIN_TOKEN:\?[^}]+\}/);
  });

  it('the API reference says an old video_id is 400 and that kl callbacks are delivered', () => {
    const reference = readFileSync(join(root, 'docs/api.md'), 'utf8');
    expect(reference.replace(/\s+/g, ' ')).toContain('at most 30 days old (an older one is 400 `param: video_id`)');
    expect(reference).toMatch(/With `callback_url` \(kl editing tasks and custom voices, vd\)/);
  });
});
