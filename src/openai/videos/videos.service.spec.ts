import type { Request, Response } from 'express';
import { resultFileFactory, succeededTask, taskFactory } from '../../../test/factories';
import { InMemoryResultFiles, newFakes, principal } from '../../../test/fakes';
import { png } from '../../../test/fixtures/media';
import { ModelDescriptor } from '../../core/models/model-catalogue';
import { ResultKeeper } from '../../core/result-keeping/result-keeper.service';
import { ResultLinks } from '../../core/result-keeping/result-links';
import { resultFileId, videoSlot } from '../../core/result-keeping/result-slots';
import { TaskEntity } from '../../core/tasks/entities/task.entity';
import { TaskDeletion } from '../../core/tasks/task-deletion.service';
import { TASK_FACE_ECHO } from '../../core/tasks/task-faces';
import { AppConfig } from '../../platform/config/app-config';
import { ResultServing } from '../../result-serving/result-serving.service';
import { VideosRepository } from './videos.repository';
import { VideosService } from './videos.service';

const AX_MODEL: ModelDescriptor = { name: 'wx2.7-r2v', family: 'ax', protocol: 'v2', capabilities: [] };
const KL_MODEL: ModelDescriptor = { name: 'kling-v1-6', family: 'kl', protocol: 'v1', capabilities: [] };
const IMAGE = { image_url: 'https://media.test/cat.png' };
const ctx = () => ({ requestId: 'req_1', startedAt: 0n });

/** The real engine over the in-memory fakes; deletion's file discarding and result serving recorded. */
function setup() {
  const f = newFakes();
  const files = new InMemoryResultFiles();
  const discarded: string[] = [];
  const keeper = Object.assign(Object.create(ResultKeeper.prototype) as ResultKeeper, {
    discard: async (taskId: string) => void discarded.push(taskId),
  });
  const served: string[] = [];
  const links = new ResultLinks({
    origin: 'http://gw.test',
    secrets: ['s'],
    ttlSeconds: 3600,
    nowSeconds: () => Math.floor(f.clock.nowMs() / 1000),
  });
  const serving = Object.assign(Object.create(ResultServing.prototype) as ResultServing, {
    serve: async (token: string) => void served.push(token),
  });
  const service = new VideosService(
    f.engine,
    f.tasks,
    Object.create(VideosRepository.prototype) as VideosRepository,
    files,
    new TaskDeletion(f.tasks, keeper, f.clock),
    links,
    serving,
    f.clock,
    { MEDIA_FETCH_ALLOW_PRIVATE: false } as AppConfig,
  );
  const put = (task: TaskEntity) => (f.tasks.put(task), task);
  return { ...f, service, files, discarded, served, links, put };
}

describe('VideosService', () => {
  it('maps a create onto the family’s native body, runs its rules and creates the task marked as this API’s', async () => {
    const f = setup();
    const video = await f.service.create(ctx(), principal(), AX_MODEL, {
      model: AX_MODEL.name,
      prompt: 'A dog runs.',
      seconds: '4',
      size: '1920x1080',
      input_reference: IMAGE,
    });
    expect(video).toMatchObject({ object: 'video', model: AX_MODEL.name, seconds: '4', size: '1920x1080' });
    expect(f.client.submits[0].body).toMatchObject({
      input: { prompt: 'A dog runs.', media: [{ type: 'reference_image', url: IMAGE.image_url }] },
      parameters: { resolution: '1080P', ratio: '16:9', duration: 4 },
    });
    expect(f.tasks.row(video.id).creationEcho).toMatchObject({ [TASK_FACE_ECHO]: 'openai' });
  });

  it('refuses a model of a family this API does not serve, on `model`, creating nothing', async () => {
    const f = setup();
    await expect(f.service.create(ctx(), principal(), KL_MODEL, { prompt: 'x' })).rejects.toMatchObject({
      status: 400,
      param: 'model',
    });
    expect(f.tasks.rows.size).toBe(0);
  });

  it.each([
    ['a file and an image URL at once', { input_reference: IMAGE }, { mimetype: 'image/png', buffer: png(640, 360) }],
    ['an uploaded file that is not an image', {}, { mimetype: 'text/plain', buffer: Buffer.from('x') }],
  ])('refuses %s on input_reference, creating nothing', async (_case, body, upload) => {
    const f = setup();
    await expect(
      f.service.create(ctx(), principal(), AX_MODEL, { model: AX_MODEL.name, prompt: 'p', ...body }, upload),
    ).rejects.toMatchObject({ status: 400, param: 'input_reference' });
    expect(f.client.submits).toEqual([]);
  });

  it('takes an uploaded image as an inline image of the family’s body', async () => {
    const f = setup();
    await f.service.create(
      ctx(),
      principal(),
      AX_MODEL,
      { model: AX_MODEL.name, prompt: 'p' },
      { mimetype: 'IMAGE/PNG', buffer: png(640, 360) },
    );
    expect(f.client.submits[0].body).toMatchObject({
      input: { media: [{ type: 'reference_image', url: `data:image/png;base64,${png(640, 360).toString('base64')}` }] },
    });
  });

  it('retrieves the caller’s video with the kept copy’s expiry once stored', async () => {
    const f = setup();
    f.put(succeededTask({ id: 'task_v', accountId: 'acct_1', model: AX_MODEL.name }));
    expect((await f.service.retrieve(principal(), 'task_v')).expires_at).toBeNull();
    const expiresAt = f.clock.nowMs() + 86_400_000;
    f.files.rows.set(
      resultFileId('task_v', videoSlot(0)),
      resultFileFactory.build({
        id: resultFileId('task_v', videoSlot(0)),
        taskId: 'task_v',
        status: 'stored',
        expiresAt,
      }),
    );
    expect((await f.service.retrieve(principal(), 'task_v')).expires_at).toBe(Math.floor(expiresAt / 1000));
  });

  it.each([
    ['of another account', { accountId: 'acct_2' }, null],
    ['of a family this API does not serve', { family: 'kl' as const }, null],
    ['rejected at creation', { phase: 'rejected' as const }, null],
    ['deleted', { deletedAt: 1 }, null],
    ['of a model the key may not use', {}, ['other-model']],
  ])('answers 404 for a video %s', async (_case, overrides, keyModels) => {
    const f = setup();
    f.put(succeededTask({ id: 'task_v', accountId: 'acct_1', ...overrides }));
    await expect(f.service.retrieve(principal({}, keyModels), 'task_v')).rejects.toMatchObject({ status: 404 });
  });

  it('deletes a finished video (its files first) and refuses one still running, changing nothing', async () => {
    const f = setup();
    f.put(succeededTask({ id: 'task_done', accountId: 'acct_1' }));
    f.put(taskFactory.build({ id: 'task_running', accountId: 'acct_1', phase: 'active' }));
    await expect(f.service.delete(principal(), 'task_done')).resolves.toMatchObject({ id: 'task_done', deleted: true });
    expect(f.discarded).toEqual(['task_done']);
    await expect(f.service.retrieve(principal(), 'task_done')).rejects.toMatchObject({ status: 404 });
    await expect(f.service.delete(principal(), 'task_running')).rejects.toMatchObject({ status: 400 });
    expect(f.tasks.row('task_running').deletedAt).toBeNull();
  });

  it('streams content only of a finished video, and only the variants it has', async () => {
    const f = setup();
    const req = {} as Request;
    const res = {} as Response;
    f.put(taskFactory.build({ id: 'task_running', accountId: 'acct_1', phase: 'active' }));
    await expect(f.service.content(principal(), 'task_running', 'video', req, res)).rejects.toMatchObject({
      status: 404,
      message: 'Video content not found.',
    });
    f.put(
      succeededTask({
        id: 'task_v',
        accountId: 'acct_1',
        result: { videos: [{ url: 'https://up.test/v.mp4' }], voices: [] },
      }),
    );
    await expect(f.service.content(principal(), 'task_v', 'thumbnail', req, res)).rejects.toMatchObject({
      status: 404,
      param: 'variant',
    });
    await f.service.content(principal(), 'task_v', 'video', req, res);
    expect(f.served).toHaveLength(1);
    expect(f.links.verify(f.served[0])).toMatchObject({ ok: true, ref: { taskId: 'task_v', slot: videoSlot(0) } });
  });
});
