import { klSessionFactory, taskFactory } from '../../../../test/factories';
import { newFakes, principal } from '../../../../test/fakes';
import { MediaServer, png, serveMedia } from '../../../../test/fixtures/media';
import { TaskQueries } from '../../../core/tasks/task-queries.service';
import { RemoteMediaProbe } from '../../common/media-probe-remote';
import { KL_CUSTOM_VOICES, KL_MULTI_ELEMENTS } from '../kl.ids';
import { KlSessionEntity } from '../sessions/kl-session.entity';
import { KlSessionsService } from '../sessions/kl-sessions.service';
import { validateKlEditingRequest } from './kl-editing.rules';
import { KlEditingService } from './kl-editing.service';

const ctx = () => ({ requestId: 'req_1', startedAt: 0n });
const MODEL = { name: 'kl-v1-6', family: 'kl', protocol: 'v1', capabilities: [] } as const;
const PROMPT = 'Using the context of <<<video_1>>>, seamlessly add the hat from <<<image_1>>>';

describe('KlEditingService', () => {
  let media: MediaServer;
  beforeAll(async () => {
    media = await serveMedia({ '/hat.png': png(400, 400), '/tiny.png': png(10, 10) });
  });
  afterAll(() => media.close());

  /** The real engine and task reads on fakes, the real media probe against a loopback server; sessions as stored. */
  function setup(session: KlSessionEntity) {
    const f = newFakes();
    f.upstreams.channels = [
      { id: 'kl-b', family: 'kl', baseUrl: 'http://kl-b.test', apiKey: 'bk' },
      { id: session.channelId, family: 'kl', baseUrl: 'http://kl-a.test', apiKey: 'ak' },
    ];
    const sessions = Object.assign(Object.create(KlSessionsService.prototype) as KlSessionsService, {
      findLive: async (_principal: unknown, id: string) => {
        if (id !== session.id) throw new Error(`no session ${id}`);
        return session;
      },
    });
    const service = new KlEditingService(
      f.engine,
      new TaskQueries(f.tasks),
      sessions,
      new RemoteMediaProbe({ allowPrivate: true, timeoutMs: 2000 }),
    );
    return { ...f, service };
  }

  const request = (extra: Record<string, unknown> = {}) =>
    validateKlEditingRequest({
      session_id: 'sess_1',
      edit_mode: 'addition',
      image_list: [{ image: media.url('/hat.png') }],
      prompt: PROMPT,
      ...extra,
    });

  it('creates the task on the session’s channel with the upstream’s session ID, keeping the public one', async () => {
    const f = setup(klSessionFactory.build({ id: 'sess_1', channelId: 'kl-a', upstreamSessionId: 'up-sess-1' }));
    const answer = await f.service.create(ctx(), principal(), MODEL, request({ external_task_id: 'mine-1' }));
    const task = f.tasks.row(answer.data.task_id);
    expect(task).toMatchObject({
      family: 'kl',
      action: KL_MULTI_ELEMENTS,
      channelId: 'kl-a',
      externalTaskId: 'mine-1',
      creationEcho: { session_id: 'sess_1', duration: '5', watermark_enabled: false },
    });
    expect(task.requestSnapshot).toMatchObject({ session_id: 'sess_1' });
    expect(f.client.submits[0].body).toMatchObject({ session_id: 'up-sess-1', edit_mode: 'addition', prompt: PROMPT });
  });

  it('refuses a duration the session’s video does not fit, on duration, before any download or task', async () => {
    const f = setup(klSessionFactory.build({ id: 'sess_1', originalDuration: 5 }));
    const before = media.requests.length;
    await expect(f.service.create(ctx(), principal(), MODEL, request({ duration: '10' }))).rejects.toMatchObject({
      status: 400,
      param: 'duration',
    });
    expect(media.requests.length).toBe(before);
    expect(f.tasks.rows.size).toBe(0);
  });

  it('refuses an image URL that fails the family’s image rules, naming the entry, creating nothing', async () => {
    const f = setup(klSessionFactory.build({ id: 'sess_1' }));
    await expect(
      f.service.create(ctx(), principal(), MODEL, request({ image_list: [{ image: media.url('/tiny.png') }] })),
    ).rejects.toMatchObject({ status: 400, param: 'image_list[0].image' });
    expect(f.client.submits).toEqual([]);
  });

  it('reads only editing tasks: a voice task of the caller is not found here', async () => {
    const f = setup(klSessionFactory.build({ id: 'sess_1' }));
    f.tasks.put(taskFactory.build({ id: 'task_e', family: 'kl', action: KL_MULTI_ELEMENTS }));
    f.tasks.put(taskFactory.build({ id: 'task_v', family: 'kl', action: KL_CUSTOM_VOICES }));
    await expect(f.service.get(ctx(), principal(), 'task_e')).resolves.toMatchObject({ data: { task_id: 'task_e' } });
    await expect(f.service.get(ctx(), principal(), 'task_v')).rejects.toMatchObject({ status: 404 });
  });
});
