import { klVoiceFactory, succeededTask } from '../../../../test/factories';
import { InMemoryRepository, newFakes, principal } from '../../../../test/fakes';
import { FakeUpstream, sendJson, startFakeUpstream } from '../../../../test/upstream/fake-upstream';
import { createTestUpstream } from '../../../../test/upstream/test-upstream';
import { TaskEntity } from '../../../core/tasks/entities/task.entity';
import { TaskQueries } from '../../../core/tasks/task-queries.service';
import { ChannelRegistry } from '../../../upstream/channel-routing/channel-registry';
import { KL_PATHS } from '../../../upstream/kl/kl.api';
import { KL_CUSTOM_VOICES, KL_MULTI_ELEMENTS } from '../kl.ids';
import { KlPresetsService } from './kl-presets.service';
import { KlVoiceEntity } from './kl-voice.entity';
import { KL_DELETE_CLAIM_TTL_MS, KlVoicesRepository } from './kl-voices.repository';
import { KlVoicesService } from './kl-voices.service';

const ctx = () => ({ requestId: 'req_1', startedAt: 0n });
const VOICE_ID = 'voice_v1_0';
const KL_MODEL = { name: 'kling-voice', family: 'kl', protocol: 'v1', capabilities: [] } as const;

/**
 * The real repository over voice rows in memory; what it does in SQL beyond plain reads and updates
 * is written here: the claim (one caller wins, an abandoned claim can be taken again).
 */
class InMemoryKlVoices extends KlVoicesRepository {
  constructor(readonly table = new InMemoryRepository(KlVoiceEntity)) {
    super(table);
  }

  row(id: string): KlVoiceEntity | undefined {
    return this.table.rows.find((r) => r.id === id);
  }

  override async ensure(voice: Omit<KlVoiceEntity, 'deleteTaskId' | 'deleteState' | 'deletedAt'>): Promise<void> {
    if (!this.row(voice.id))
      await this.table.insert({ ...voice, deleteTaskId: null, deleteState: null, deletedAt: null });
  }

  override async claimDeletion(id: string, accountId: string, deleteTaskId: string, now: number): Promise<boolean> {
    const row = this.row(id);
    const free =
      row?.deleteTaskId === null || (row?.deleteState === 'pending' && row.updatedAt < now - KL_DELETE_CLAIM_TTL_MS);
    if (!row || row.accountId !== accountId || !free) return false;
    Object.assign(row, { deleteTaskId, deleteState: 'pending', updatedAt: now });
    return true;
  }

  override async deletedIds(accountId: string, taskIds: string[]): Promise<Set<string>> {
    const rows = this.table.rows.filter(
      (r) => r.accountId === accountId && taskIds.includes(r.taskId) && r.deleteState === 'deleted',
    );
    return new Set(rows.map((r) => r.id));
  }
}

describe('KlVoicesService', () => {
  let upstream: FakeUpstream;
  let floor: ReturnType<typeof createTestUpstream>;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    floor = createTestUpstream();
  });
  afterAll(async () => {
    await upstream.close();
    floor.close();
  });

  /** The real engine and task reads on fakes; the family's client over the wire to a fake upstream. */
  function setup() {
    const f = newFakes();
    const registry = new ChannelRegistry(
      [{ id: 'kl-a', family: 'kl', baseUrl: upstream.baseUrl, apiKey: 'ak', secretKey: 'sk' }],
      floor.breakers,
    );
    const presets = Object.assign(Object.create(KlPresetsService.prototype) as KlPresetsService, {
      isOfficial: async (id: string) => id === 'official-voice-1',
    });
    const voices = new InMemoryKlVoices();
    const service = new KlVoicesService(
      f.engine,
      new TaskQueries(f.tasks),
      voices,
      presets,
      floor.kl,
      registry,
      f.clock,
    );
    const voiceTask = (overrides: Partial<TaskEntity> = {}) =>
      f.tasks.put(
        succeededTask({
          id: 'task_v1',
          family: 'kl',
          action: KL_CUSTOM_VOICES,
          channelId: 'kl-a',
          result: { videos: [], voices: [{ voiceId: 'up-voice-9', voiceName: 'mine' }] },
          ...overrides,
        }),
      );
    return { ...f, service, voices, voiceTask };
  }

  beforeEach(() => {
    upstream.requests.length = 0;
    upstream.handle((_req, res) => sendJson(res, 200, { code: 0, message: 'SUCCEED', data: {} }));
  });

  it('deletes a custom voice upstream by its upstream ID, once, and marks it deleted', async () => {
    const f = setup();
    f.voiceTask();
    const answer = await f.service.delete(ctx(), principal(), { voice_id: VOICE_ID });
    expect(answer).toMatchObject({ code: 0, data: { task_status: 'succeed' } });
    expect(upstream.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ['POST', KL_PATHS.deleteVoices, { voice_id: 'up-voice-9' }],
    ]);
    expect(f.voices.row(VOICE_ID)).toMatchObject({ deleteState: 'deleted', upstreamVoiceId: 'up-voice-9' });
    await expect(f.service.delete(ctx(), principal(), { voice_id: VOICE_ID })).rejects.toMatchObject({
      status: 400,
      message: 'This voice is already deleted.',
    });
    expect(upstream.requests).toHaveLength(1);
  });

  it('a failed upstream call gives the claim back: 503, and a retry deletes it', async () => {
    const f = setup();
    f.voiceTask();
    upstream.handle((_req, res) => sendJson(res, 500, { code: 5000, message: 'internal' }));
    await expect(f.service.delete(ctx(), principal(), { voice_id: VOICE_ID })).rejects.toMatchObject({ status: 503 });
    expect(f.voices.row(VOICE_ID)).toMatchObject({ deleteTaskId: null, deleteState: null });
    upstream.handle((_req, res) => sendJson(res, 200, { code: 0, message: 'SUCCEED', data: {} }));
    await expect(f.service.delete(ctx(), principal(), { voice_id: VOICE_ID })).resolves.toMatchObject({ code: 0 });
  });

  it('an upstream that no longer knows the voice (404) counts as deleted', async () => {
    const f = setup();
    f.voiceTask();
    upstream.handle((_req, res) => sendJson(res, 404, { code: 1203, message: 'voice not found' }));
    await expect(f.service.delete(ctx(), principal(), { voice_id: VOICE_ID })).resolves.toMatchObject({ code: 0 });
    expect(f.voices.row(VOICE_ID)).toMatchObject({ deleteState: 'deleted' });
  });

  it('a deletion another caller holds is refused while it is fresh, and can be taken once abandoned', async () => {
    const f = setup();
    f.voiceTask();
    f.voices.table.rows.push(
      klVoiceFactory.build({
        id: VOICE_ID,
        accountId: 'acct_1',
        taskId: 'task_v1',
        deleteTaskId: 'task_other',
        deleteState: 'pending',
        updatedAt: f.clock.nowMs(),
      }),
    );
    await expect(f.service.delete(ctx(), principal(), { voice_id: VOICE_ID })).rejects.toMatchObject({
      status: 400,
      message: 'This voice is already being deleted.',
    });
    f.clock.advance(KL_DELETE_CLAIM_TTL_MS + 1);
    await expect(f.service.delete(ctx(), principal(), { voice_id: VOICE_ID })).resolves.toMatchObject({ code: 0 });
  });

  it.each([
    ['an official voice', 'official-voice-1', 400],
    ['an unknown voice', 'no-such-voice', 404],
    ['a voice of another account', VOICE_ID, 404],
    ['a voice whose task has not succeeded', VOICE_ID, 404],
  ])('refuses to delete %s, calling no upstream', async (name, voiceId, status) => {
    const f = setup();
    if (name.includes('another account')) f.voiceTask({ accountId: 'acct_2' });
    if (name.includes('not succeeded')) f.voiceTask({ phase: 'active', result: null });
    await expect(f.service.delete(ctx(), principal(), { voice_id: voiceId })).rejects.toMatchObject({
      status,
      param: 'voice_id',
    });
    expect(upstream.requests).toEqual([]);
  });

  it('a voice from a video is made on the channel that made the video, from the upstream’s video ID', async () => {
    const f = setup();
    f.tasks.put(
      succeededTask({
        id: 'task_ed1',
        family: 'kl',
        action: KL_MULTI_ELEMENTS,
        channelId: 'kl-a',
        result: { videos: [{ id: 'up-video-7', url: 'https://up.test/v.mp4' }], voices: [] },
      }),
    );
    // Another channel of the family comes first: a new task without a fixed channel would go there.
    f.upstreams.channels = [
      { id: 'kl-b', family: 'kl', baseUrl: upstream.baseUrl, apiKey: 'bk' },
      { id: 'kl-a', family: 'kl', baseUrl: upstream.baseUrl, apiKey: 'ak' },
    ];
    await f.service.create(ctx(), principal(), KL_MODEL, {
      dto: { voice_name: 'mine', video_id: 'video_ed1_0' },
      source: { kind: 'video', taskId: 'task_ed1', index: 0 },
    });
    expect(f.client.submits[0].body).toEqual({ voice_name: 'mine', video_id: 'up-video-7' });
    const [task] = [...f.tasks.rows.values()].filter((t) => t.action === KL_CUSTOM_VOICES);
    expect(task).toMatchObject({ channelId: 'kl-a', requestSnapshot: { voice_name: 'mine', video_id: 'video_ed1_0' } });
  });

  it('refuses a video that is not a succeeded editing result of the caller, on video_id', async () => {
    const f = setup();
    await expect(
      f.service.create(ctx(), principal(), KL_MODEL, {
        dto: { voice_name: 'mine', video_id: 'video_ed1_0' },
        source: { kind: 'video', taskId: 'task_ed1', index: 0 },
      }),
    ).rejects.toMatchObject({ status: 404, param: 'video_id' });
    expect(f.client.submits).toEqual([]);
  });
});
