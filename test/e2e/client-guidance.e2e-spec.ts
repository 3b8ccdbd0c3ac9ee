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
  });

  it('upstream throttling is 429 with Retry-After and the family’s native code, not 400', async () => {
    const res = await post(VOICES, { voice_name: 'N sim:throttle', voice_url: 'https://example.com/v.mp3' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body.code).toBe(1302);
  });

  it('one capability rule for reads: an account with family C models only reads neither family A nor B', async () => {
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

  it('the README says an old video_id is 400 and that family A callbacks are delivered', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme.replace(/\s+/g, ' ')).toContain('at most 30 days old (an older one is 400 `param: video_id`)');
    expect(readme).not.toContain('family A later');
  });
});
