import { DataSource } from 'typeorm';
import { simulatorChannels } from '../../src/bootstrap/resolve-channels';
import { TaskEntity } from '../../src/core/tasks/entities/task.entity';
import { TasksRepository } from '../../src/core/tasks/tasks.repository';
import { publicVideoId } from '../../src/families/kl/tasks/kl-result-ids';
import { KlVoiceEntity } from '../../src/families/kl/voices/kl-voice.entity';
import { KL_DELETE_CLAIM_TTL_MS } from '../../src/families/kl/voices/kl-voices.repository';
import { KL_PRESET_LINK_FRESH_MS } from '../../src/families/kl/voices/kl-presets.service';
import { ManualClock } from '../../src/platform/time/clock';
import { startSimulator } from '../../src/simulator/simulator';
import { Harness, TestAccount, startGateway } from '../support/gateway-harness';
import { FAST_ENV, SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';
import { SAMPLE_MP4, getResult } from '../support/results';

const VOICES = '/kl/v1/general/custom-voices';
const PRESETS = '/kl/v1/general/presets-voices';
const DELETE = '/kl/v1/general/delete-voices';
const BALANCE = 100_000_000;
const VOICE_PRICE = 5000;

describe('kl voices through the simulator', () => {
  let gw: SimulatedGateway;
  let acct: TestAccount;

  beforeAll(async () => {
    gw = await startSimulatedGateway();
    acct = await gw.admin.account({ models: ['kl-v1', 'kl-v1-6'], balance: BALANCE });
  });
  afterAll(() => gw.close());

  const create = (body: unknown, account: TestAccount = acct) =>
    gw
      .http()
      .post(VOICES)
      .set(...bearer(account))
      .send(body as object);
  const query = (id: string, account: TestAccount = acct) =>
    gw
      .http()
      .get(`${VOICES}/${id}`)
      .set(...bearer(account));
  const list = (qs = '', account: TestAccount = acct) =>
    gw
      .http()
      .get(`${VOICES}${qs}`)
      .set(...bearer(account));
  const del = (voiceId: string, account: TestAccount = acct) =>
    gw
      .http()
      .post(DELETE)
      .set(...bearer(account))
      .send({ voice_id: voiceId });
  const upstreamCalls = (path: string, method = 'POST') =>
    gw.sim.requests.filter((r) => r.family === 'kl' && r.method === method && r.path.startsWith(path)).length;
  const money = async (account: TestAccount) => {
    const res = await gw.admin.get(`/admin/v1/accounts/${account.id}`).expect(200);
    return { balance: res.body.balance as number, held: res.body.held as number };
  };
  const succeeded = (id: string, account: TestAccount = acct) =>
    eventually(async () => {
      const q = await query(id, account).expect(200);
      return q.body.data.task_status === 'succeed' ? q.body : null;
    });
  const newVoice = async (account: TestAccount = acct, name = 'Narrator') => {
    const res = await create({ voice_name: name, voice_url: 'https://example.com/a/voice.mp3' }, account).expect(200);
    const done = await succeeded(res.body.data.task_id, account);
    return { taskId: res.body.data.task_id as string, voiceId: done.data.task_result.voices[0].voice_id as string };
  };

  it('create -> poll -> succeed -> list -> delete -> list shows it deleted -> second delete refused', async () => {
    const before = await money(acct);
    const res = await create({
      voice_name: 'My narrator',
      voice_url: 'https://example.com/a/voice.mp3?sig=1',
      external_task_id: 'flow-1',
    }).expect(200);
    expect(res.body).toEqual({
      code: 0,
      message: 'SUCCEED',
      request_id: expect.any(String),
      data: {
        task_id: expect.stringMatching(/^task_/),
        task_status: 'submitted',
        task_info: { external_task_id: 'flow-1' },
        created_at: expect.any(Number),
        updated_at: expect.any(Number),
      },
    });
    const taskId = res.body.data.task_id;
    const sent = gw.sim.requests
      .filter((r) => r.method === 'POST' && r.path.startsWith('/v1/general/custom-voices'))
      .at(-1);
    expect(sent?.body).toMatchObject({
      voice_name: 'My narrator',
      voice_url: 'https://example.com/a/voice.mp3?sig=1',
      external_task_id: taskId,
    });

    const done = await succeeded(taskId);
    expect(done.data).toMatchObject({
      task_id: taskId,
      task_status: 'succeed',
      task_status_msg: '',
      task_info: { external_task_id: 'flow-1' },
      final_unit_deduction: expect.any(String),
    });
    const [voice] = done.data.task_result.voices;
    expect(voice).toEqual({
      voice_id: expect.stringMatching(/^voice_[0-9a-z]+_0$/),
      deleted: false,
      voice_name: 'My narrator',
      trial_url: expect.any(String),
      owned_by: expect.stringMatching(/^\d+$/),
    });
    expect(voice.owned_by).not.toBe('20240601'); // the upstream account's creator number
    // Billed like any task: held at creation, settled at the voice price on success.
    await eventually(async () => ((await money(acct)).held === before.held ? true : null));
    expect((await money(acct)).balance).toBe(before.balance - VOICE_PRICE);

    const listed = await list(`?filter.task_ids=${taskId}`).expect(200);
    expect(listed.body).toMatchObject({ code: 0, data: { total: 1, page_num: 1, page_size: 20 } });
    expect(listed.body.data.items[0]).toEqual({
      task_id: taskId,
      platform: 'kl',
      action: 'custom_voices',
      status: 'SUCCESS',
      progress: '100%',
      fail_reason: '',
      created_at: Math.floor(done.data.created_at / 1000),
      data: expect.objectContaining({
        code: 0,
        // The same signed result path; its origin is the Host of each request (the harness's port varies).
        data: expect.objectContaining({
          task_id: taskId,
          task_result: {
            voices: [{ ...voice, trial_url: expect.stringContaining(new URL(voice.trial_url).pathname) }],
          },
        }),
      }),
    });

    const upstreamVoiceId = gw.sim.requests.length; // anchor
    const deleted = await del(voice.voice_id).expect(200);
    expect(deleted.body).toMatchObject({
      code: 0,
      data: { task_id: expect.stringMatching(/^task_/), task_status: 'succeed' },
    });
    expect(deleted.body.data.task_id).not.toBe(taskId);
    const deleteCall = gw.sim.requests.slice(upstreamVoiceId).find((r) => r.path === '/v1/general/delete-voices');
    expect(deleteCall?.body).toEqual({ voice_id: expect.stringMatching(/^\d+$/) });

    const after = await list(`?filter.task_ids=${taskId}`).expect(200);
    expect(after.body.data.items[0].data.data.task_result.voices[0]).toMatchObject({
      voice_id: voice.voice_id,
      deleted: true,
    });
    expect((await query(taskId).expect(200)).body.data.task_result.voices[0].deleted).toBe(true);

    const again = await del(voice.voice_id).expect(400);
    expect(again.body).toMatchObject({ code: 1201, data: null, error: { code: 'invalid_request', param: 'voice_id' } });
  });

  it('deletes a voice once however many deletes race', async () => {
    const { voiceId } = await newVoice();
    const calls = upstreamCalls('/v1/general/delete-voices');
    const answers = await Promise.all(Array.from({ length: 6 }, () => del(voiceId)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect(upstreamCalls('/v1/general/delete-voices')).toBe(calls + 1);
  });

  it('records every voice of a succeeded task as the account’s the moment the task succeeds; a delete still works once', async () => {
    const voices = gw.app.get(DataSource).getRepository(KlVoiceEntity);
    const { taskId, voiceId } = await newVoice();
    // The query already says "succeed": the row committed with the terminal switch, before any delete.
    const row = await voices.findOneBy({ id: voiceId });
    expect(row).toMatchObject({
      id: voiceId,
      accountId: acct.id,
      taskId,
      voiceIndex: 0,
      upstreamVoiceId: expect.stringMatching(/^\d+$/),
      deleteTaskId: null,
      deleteState: null,
    });
    expect(await voices.countBy({ taskId })).toBe(1);
    await del(voiceId).expect(200);
    expect(await voices.findOneBy({ id: voiceId })).toMatchObject({
      deleteState: 'deleted',
      deletedAt: expect.any(Number),
    });
    await del(voiceId).expect(400);
  });

  it('a deletion left "being deleted" (upstream deleted, marking failed) can be claimed again once the claim is stale; the upstream 404 then counts as deleted', async () => {
    const voices = gw.app.get(DataSource).getRepository(KlVoiceEntity);
    const { voiceId } = await newVoice();
    await del(voiceId).expect(200); // the upstream deletes the voice...
    // ...and marking it deleted "failed": the row is left as the claim left it.
    const stuck = { deleteTaskId: 'task_lostdelete', deleteState: 'pending' as const, deletedAt: null };
    await voices.update({ id: voiceId }, { ...stuck, updatedAt: Date.now() });
    const calls = upstreamCalls('/v1/general/delete-voices');
    const fresh = await del(voiceId).expect(400);
    expect(fresh.body.error).toMatchObject({ param: 'voice_id', message: expect.stringContaining('being deleted') });
    expect(upstreamCalls('/v1/general/delete-voices')).toBe(calls);

    await voices.update({ id: voiceId }, { ...stuck, updatedAt: Date.now() - KL_DELETE_CLAIM_TTL_MS - 1000 });
    const retried = await del(voiceId).expect(200);
    expect(retried.body.data).toMatchObject({ task_id: expect.stringMatching(/^task_/), task_status: 'succeed' });
    expect(upstreamCalls('/v1/general/delete-voices')).toBe(calls + 1); // answered 404: already gone upstream
    expect(await voices.findOneBy({ id: voiceId })).toMatchObject({
      deleteState: 'deleted',
      deleteTaskId: retried.body.data.task_id,
    });
    expect(
      (await query(voiceId.replace(/^voice_(.*)_0$/, 'task_$1')).expect(200)).body.data.task_result.voices[0].deleted,
    ).toBe(true);
    await del(voiceId).expect(400);
  });

  it.each([
    ['voice_name missing', { voice_url: 'https://example.com/v.mp3' }, 'voice_name'],
    [
      'voice_name over 20 characters',
      { voice_name: 'x'.repeat(21), voice_url: 'https://example.com/v.mp3' },
      'voice_name',
    ],
    ['voice_name blank', { voice_name: '  ', voice_url: 'https://example.com/v.mp3' }, 'voice_name'],
    ['neither source', { voice_name: 'n' }, 'voice_url'],
    ['both sources', { voice_name: 'n', voice_url: 'https://example.com/v.mp3', video_id: 'video_abc_0' }, 'video_id'],
    ['voice_url not http(s)', { voice_name: 'n', voice_url: 'ftp://example.com/v.mp3' }, 'voice_url'],
    ['voice_url with another extension', { voice_name: 'n', voice_url: 'https://example.com/v.ogg' }, 'voice_url'],
    ['voice_url at a loopback address', { voice_name: 'n', voice_url: 'http://127.0.0.1/v.mp3' }, 'voice_url'],
    ['voice_url at a metadata address', { voice_name: 'n', voice_url: 'http://169.254.169.254/v.mp3' }, 'voice_url'],
    ['voice_url naming localhost', { voice_name: 'n', voice_url: 'http://localhost/v.mp3' }, 'voice_url'],
    ['an unknown field', { voice_name: 'n', voice_url: 'https://example.com/v.mp3', speed: 2 }, 'speed'],
    ['voice_name not a string', { voice_name: 5, voice_url: 'https://example.com/v.mp3' }, 'voice_name'],
    [
      'callback_url not a URL',
      { voice_name: 'n', voice_url: 'https://example.com/v.mp3', callback_url: 'nope' },
      'callback_url',
    ],
  ])('refuses %s with 400 naming the field, before any upstream call or charge', async (_name, body, param) => {
    const calls = upstreamCalls('/v1/general/custom-voices');
    const before = await money(acct);
    const res = await create(body).expect(400);
    expect(res.body).toMatchObject({
      code: 1201,
      data: null,
      error: { code: 'invalid_request', type: 'invalid_request_error', param },
    });
    expect(upstreamCalls('/v1/general/custom-voices')).toBe(calls);
    expect(await money(acct)).toEqual(before);
  });

  it('counts voice_name as the upstream does (UTF-16 code units), and accepts a URL without an extension', async () => {
    const accepted = [
      await create({ voice_name: '声'.repeat(20), voice_url: 'https://example.com/stream' }).expect(200),
      await create({ voice_name: 'Upper case', voice_url: 'https://example.com/v.WAV' }).expect(200),
      // 10 emoji are 20 units: the gateway and the upstream both take them.
      await create({ voice_name: '😀'.repeat(10), voice_url: 'https://example.com/v.mp3' }).expect(200),
    ];
    for (const res of accepted) await succeeded(res.body.data.task_id);
    await eventually(async () => ((await money(acct)).held === 0 ? true : null));
    // 20 emoji are 40 units: refused here, as the upstream would refuse them, before any upstream call or hold.
    const calls = upstreamCalls('/v1/general/custom-voices');
    const before = await money(acct);
    const emoji = await create({ voice_name: '😀'.repeat(20), voice_url: 'https://example.com/v.mp3' }).expect(400);
    expect(emoji.body).toMatchObject({
      code: 1201,
      data: null,
      error: { code: 'invalid_request', param: 'voice_name', message: expect.stringMatching(/UTF-16 code units/) },
    });
    expect(upstreamCalls('/v1/general/custom-voices')).toBe(calls);
    expect(await money(acct)).toEqual(before);
  });

  it('refuses a duplicate external_task_id per account, but not across accounts', async () => {
    await create({ voice_name: 'n', voice_url: 'https://example.com/v.mp3', external_task_id: 'dup-1' }).expect(200);
    const calls = upstreamCalls('/v1/general/custom-voices');
    const res = await create({
      voice_name: 'n',
      voice_url: 'https://example.com/v.mp3',
      external_task_id: 'dup-1',
    }).expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'external_task_id' });
    expect(upstreamCalls('/v1/general/custom-voices')).toBe(calls);
    const other = await gw.admin.account({ models: ['kl-v1'] });
    await create({ voice_name: 'n', voice_url: 'https://example.com/v.mp3', external_task_id: 'dup-1' }, other).expect(
      200,
    );
  });

  it('applies the kl model rule and the voices capability', async () => {
    const unknown = await create({
      model_name: 'kl-v9',
      voice_name: 'n',
      voice_url: 'https://example.com/v.mp3',
    }).expect(404);
    expect(unknown.body.error).toMatchObject({ code: 'model_not_found', param: 'model_name' });
    const v16Only = await gw.admin.account({ models: ['kl-v1-6'] });
    // No model field: kl-v1, which this account lacks.
    await create({ voice_name: 'n', voice_url: 'https://example.com/v.mp3' }, v16Only).expect(404);
    await create({ model_name: 'kl-v1-6', voice_name: 'n', voice_url: 'https://example.com/v.mp3' }, v16Only).expect(
      200,
    );
    const noVoices = await gw.admin.account({ models: [{ model: 'kl-v1', capabilities: ['editing.task'] }] });
    await create({ voice_name: 'n', voice_url: 'https://example.com/v.mp3' }, noVoices).expect(403);
    await list('', noVoices).expect(403);
    await gw
      .http()
      .get(PRESETS)
      .set(...bearer(noVoices))
      .expect(403);
    await gw
      .http()
      .post(DELETE)
      .set(...bearer(noVoices))
      .send({ voice_id: 'voice_x_0' })
      .expect(403);
  });

  it('marks a failed voice task failed and releases its hold; passes an upstream rejection on as 400', async () => {
    const other = await gw.admin.account({ models: ['kl-v1'], balance: BALANCE });
    const res = await create({ voice_name: 'sim:fail', voice_url: 'https://example.com/v.mp3' }, other).expect(200);
    const failed = await eventually(async () => {
      const q = await query(res.body.data.task_id, other).expect(200);
      return q.body.data.task_status === 'failed' ? q.body : null;
    });
    expect(failed.data.task_status_msg).toBeTruthy();
    expect(failed.data.task_result.voices).toEqual([]);
    await eventually(async () => ((await money(other)).held === 0 ? true : null));
    expect(await money(other)).toEqual({ balance: BALANCE, held: 0 });
    const listed = await list('', other).expect(200);
    expect(listed.body.data.items[0]).toMatchObject({ status: 'FAILURE', fail_reason: expect.any(String) });

    const rejected = await create({ voice_name: 'sim:reject', voice_url: 'https://example.com/v.mp3' }, other).expect(
      400,
    );
    expect(rejected.body.error.code).toBe('invalid_request');
    expect(await money(other)).toEqual({ balance: BALANCE, held: 0 });
  });

  describe('ownership', () => {
    let intruder: TestAccount;
    beforeAll(async () => {
      intruder = await gw.admin.account({ models: ['kl-v1', 'kl-v1-6'] });
    });

    it('hides another account’s voice task, voice and list entries behind 404 / nothing', async () => {
      const { taskId, voiceId } = await newVoice();
      const q = await query(taskId, intruder).expect(404);
      expect(q.body).toMatchObject({ code: 1203, data: null, error: { code: 'not_found' } });
      const d = await del(voiceId, intruder).expect(404);
      expect(d.body.error).toMatchObject({ code: 'not_found', param: 'voice_id' });
      const l = await list(`?filter.task_ids=${taskId}`, intruder).expect(200);
      expect(l.body.data).toMatchObject({ items: [], total: 0 });
      // Still the owner's to delete.
      await del(voiceId).expect(200);
    });

    it('answers 404 for unknown voices and voice IDs of tasks that produced none', async () => {
      const { voiceId } = await newVoice();
      for (const id of ['voice_doesnotexist_0', '12345', voiceId.replace(/_0$/, '_3')]) {
        const res = await del(id).expect(404);
        expect(res.body.error).toMatchObject({ code: 'not_found', param: 'voice_id' });
        expect(res.body.error.message).toMatch(/^Unknown voice_id/);
      }
    });

    it('takes video_id only from this account’s succeeded editing results', async () => {
      const tasks = gw.app.get(TasksRepository);
      const own = await insertEditingTask(tasks, acct, 'succeeded', 'upstream-video-777');
      const failed = await insertEditingTask(tasks, acct, 'failed', 'upstream-video-778');
      const others = await insertEditingTask(tasks, intruder, 'succeeded', 'upstream-video-779');
      const voiceTask = await newVoice();
      const calls = upstreamCalls('/v1/general/custom-voices');
      for (const videoId of [
        publicVideoId(others, 0),
        publicVideoId(failed, 0),
        publicVideoId(own, 1),
        publicVideoId(voiceTask.taskId, 0),
        'video_nope_0',
        'not-a-video',
      ]) {
        const res = await create({ voice_name: 'from video', video_id: videoId }).expect(404);
        expect(res.body.error).toMatchObject({ code: 'not_found', param: 'video_id' });
      }
      expect(upstreamCalls('/v1/general/custom-voices')).toBe(calls);
      const res = await create({ voice_name: 'from video', video_id: publicVideoId(own, 0) }).expect(200);
      const sent = gw.sim.requests
        .filter((r) => r.method === 'POST' && r.path.startsWith('/v1/general/custom-voices'))
        .at(-1);
      expect(sent?.body).toMatchObject({ video_id: 'upstream-video-777' });
      const done = await succeeded(res.body.data.task_id);
      expect(done.data.task_result.voices).toHaveLength(1);
    });
  });

  describe('lists', () => {
    it('pages, filters by model and task IDs (repeated), scoped to the account', async () => {
      const acct2 = await gw.admin.account({ models: ['kl-v1', 'kl-v1-6'] });
      const a = (await create({ voice_name: 'a', voice_url: 'https://example.com/v.mp3' }, acct2).expect(200)).body.data
        .task_id;
      const b = (
        await create({ model_name: 'kl-v1-6', voice_name: 'b', voice_url: 'https://example.com/v.mp3' }, acct2).expect(
          200,
        )
      ).body.data.task_id;
      const c = (await create({ voice_name: 'c', voice_url: 'https://example.com/v.mp3' }, acct2).expect(200)).body.data
        .task_id;
      const all = await list('?pageNum=1&pageSize=2', acct2).expect(200);
      expect(all.body.data).toMatchObject({ total: 3, page_num: 1, page_size: 2 });
      expect(all.body.data.items.map((i: { task_id: string }) => i.task_id)).toEqual([c, b]);
      const page2 = await list('?pageNum=2&pageSize=2', acct2).expect(200);
      expect(page2.body.data.items.map((i: { task_id: string }) => i.task_id)).toEqual([a]);
      const byModel = await list('?filter.model=kl-v1-6', acct2).expect(200);
      expect(byModel.body.data.items.map((i: { task_id: string }) => i.task_id)).toEqual([b]);
      const byIds = await list(`?filter.task_ids=${a}&filter.task_ids=${c}`, acct2).expect(200);
      expect(byIds.body.data.items.map((i: { task_id: string }) => i.task_id)).toEqual([c, a]);
    });

    it.each([
      ['?pageNum=0', 'pageNum'],
      ['?pageNum=501', 'pageNum'],
      ['?pageSize=0', 'pageSize'],
      ['?pageSize=abc', 'pageSize'],
      ['?pageSize=1&pageSize=2', 'pageSize'],
      [`?${Array.from({ length: 101 }, (_, i) => `filter.task_ids=task_${i}`).join('&')}`, 'filter.task_ids'],
      ['?page=2', 'page'],
    ])('refuses %s naming %s', async (qs, param) => {
      const res = await list(qs).expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    });

    it('accepts 100 task IDs and the 500 bounds', async () => {
      await list(`?${Array.from({ length: 100 }, (_, i) => `filter.task_ids=task_${i}`).join('&')}`).expect(200);
      await list('?pageNum=500&pageSize=500').expect(200);
    });
  });

  describe('official presets', () => {
    it('lists the official voices with owned_by kl, paged', async () => {
      const res = await gw
        .http()
        .get(`${PRESETS}?pageNum=1&pageSize=2`)
        .set(...bearer(acct))
        .expect(200);
      expect(res.body).toMatchObject({ code: 0, message: 'SUCCEED', request_id: expect.any(String) });
      expect(res.body.data).toHaveLength(2);
      expect(res.body.data[0]).toEqual({
        task_id: expect.any(String),
        task_status: 'succeed',
        task_status_msg: '',
        task_result: {
          voices: [
            {
              voice_id: expect.any(String),
              voice_name: expect.any(String),
              trial_url: expect.any(String),
              owned_by: 'kl',
            },
          ],
        },
        created_at: expect.any(Number),
        updated_at: expect.any(Number),
      });
      await gw
        .http()
        .get(`${PRESETS}?pageSize=501`)
        .set(...bearer(acct))
        .expect(400);
      await gw
        .http()
        .get(`${PRESETS}?foo=1`)
        .set(...bearer(acct))
        .expect(400);
    });

    it('refuses to delete an official voice with 400', async () => {
      const presets = await gw
        .http()
        .get(PRESETS)
        .set(...bearer(acct))
        .expect(200);
      const officialId = presets.body.data[0].task_result.voices[0].voice_id;
      const calls = upstreamCalls('/v1/general/delete-voices');
      const res = await del(officialId).expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'voice_id' });
      expect(upstreamCalls('/v1/general/delete-voices')).toBe(calls);
    });

    it('refuses bad delete bodies', async () => {
      expect(
        (
          await gw
            .http()
            .post(DELETE)
            .set(...bearer(acct))
            .send({})
            .expect(400)
        ).body.error.param,
      ).toBe('voice_id');
      expect(
        (
          await gw
            .http()
            .post(DELETE)
            .set(...bearer(acct))
            .send({ voice_id: 'v', extra: 1 })
            .expect(400)
        ).body.error.param,
      ).toBe('extra');
    });
  });
});

describe('kl presets while the upstream fails', () => {
  let gw: Harness;
  let acct: TestAccount;
  const clock = new ManualClock(new Date());
  let closeSim: () => Promise<void>;

  beforeAll(async () => {
    const sim = await startSimulator({ taskMs: 150 });
    closeSim = () => sim.close();
    gw = await startGateway({ channels: simulatorChannels(sim), env: FAST_ENV, clock });
    acct = await gw.admin.account({ models: ['kl-v1'] });
  });
  afterAll(() => gw.close());

  it('serves the cached page after it expires while the upstream is down, and 503 without a copy', async () => {
    const presets = (qs = '') =>
      gw
        .http()
        .get(`${PRESETS}${qs}`)
        .set(...bearer(acct));
    const first = await presets('?pageNum=1&pageSize=3').expect(200);
    expect(first.body.data).toHaveLength(3);
    await closeSim();
    clock.advance(61_000);
    const stale = await presets('?pageNum=1&pageSize=3').expect(200);
    // The same answer; result URLs are on the host of each request (the harness's port varies).
    const onAnyHost = (body: { data: unknown }) =>
      JSON.parse(JSON.stringify(body.data).replace(/http:\/\/[^/"]+\/results\//g, '/results/')) as unknown;
    expect(onAnyHost(stale.body)).toEqual(onAnyHost(first.body));
    const none = await presets('?pageNum=2&pageSize=3').expect(503);
    expect(none.body).toMatchObject({ code: 5001, data: null, error: { code: 'service_unavailable' } });
  });
});

describe('kl preset trial audio, served by the gateway', () => {
  let gw: Harness;
  let acct: TestAccount;
  const clock = new ManualClock(new Date());
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  /** The upstream's trial links expire after this (the vendor's: 10 minutes). */
  const UPSTREAM_LINK_MS = 1500;

  beforeAll(async () => {
    sim = await startSimulator({ taskMs: 150, resultTtlMs: UPSTREAM_LINK_MS });
    gw = await startGateway({ channels: simulatorChannels(sim), env: FAST_ENV, clock });
    acct = await gw.admin.account({ models: ['kl-v1'] });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  const presetCalls = () => sim.requests.filter((r) => r.path.startsWith('/v1/general/presets-voices')).length;

  it('hands out gateway URLs that keep working after the upstream link has expired', async () => {
    const res = await gw
      .http()
      .get(`${PRESETS}?pageNum=1&pageSize=2`)
      .set(...bearer(acct))
      .expect(200);
    const urls = res.body.data.map(
      (item: { task_result: { voices: Array<{ trial_url: string }> } }) => item.task_result.voices[0].trial_url,
    );
    expect(urls).toHaveLength(2);
    for (const url of urls) {
      expect(url).toMatch(/^http:\/\/[^/]+\/results\/r\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      expect(url).not.toContain(new URL(sim.endpoints.kl.baseUrl).host);
    }
    expect(presetCalls()).toBe(1);
    // While the cached link is fresh, it is streamed as it is: no upstream list call.
    const first = await getResult(() => gw.http(), urls[0]).expect(200);
    expect(first.body.equals(SAMPLE_MP4)).toBe(true);
    expect(presetCalls()).toBe(1);

    // The upstream's link has expired, and the cached page is past the link freshness: a fresh link is fetched.
    await new Promise((resolve) => setTimeout(resolve, UPSTREAM_LINK_MS + 100));
    clock.advance(KL_PRESET_LINK_FRESH_MS);
    for (const url of urls) {
      const again = await getResult(() => gw.http(), url).expect(200);
      expect(again.body.equals(SAMPLE_MP4)).toBe(true);
    }
    // One upstream list call renewed the page for both voices.
    expect(presetCalls()).toBe(2);
    await getResult(() => gw.http(), urls[0], 'bytes=0-9').expect(206);
  });
});

async function insertEditingTask(
  tasks: TasksRepository,
  account: TestAccount,
  phase: 'succeeded' | 'failed',
  upstreamVideoId: string,
): Promise<string> {
  const now = Date.now();
  const id = `task_${Math.random().toString(36).slice(2, 12)}${now.toString(36)}`;
  const task = Object.assign(new TaskEntity(), {
    id,
    accountId: account.id,
    apiKeyId: account.keyId,
    family: 'kl',
    action: 'multi_elements',
    model: 'kl-v1-6',
    channelId: 'kl-default', // the channel the simulated gateway has: a video_id is that channel's video
    upstreamTaskId: `up-${id}`,
    phase,
    nativeStatus: phase === 'succeeded' ? 'succeed' : 'failed',
    outerStatus: phase === 'succeeded' ? 'SUCCESS' : 'FAILURE',
    progress: 100,
    failureCode: null,
    failureReason: phase === 'failed' ? 'moderation' : null,
    requestSnapshot: {},
    creationEcho: null,
    result: { videos: [{ id: upstreamVideoId, url: 'https://example.com/out.mp4' }], voices: [] },
    lastNative: null,
    nativeUsage: null,
    externalTaskId: null,
    callbackUrl: null,
    callbackToken: null,
    billableUsage: { kind: 'kl-edit' },
    billingState: 'settled',
    estimatedCharge: 0,
    finalCharge: 0,
    priceVersion: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: now,
    syncDueAt: null,
    syncAttempts: 0,
    leaseOwner: null,
    leaseUntil: null,
    deadlineAt: now + 86_400_000,
  } satisfies Partial<TaskEntity>);
  await tasks.insert(task);
  return id;
}
