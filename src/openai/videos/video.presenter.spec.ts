import { taskRecord } from '../../../test/factories/tasks';
import { FamilyRegistry } from '../../families/family-registry';
import { FAMILIES } from '../../families';
import { registerTaskFace, TASK_FACE_ECHO, taskFaceOf } from '../../core/tasks/task-faces';
import { OPENAI_FACE, presentVideo, presentVideoEvent, videoStatus } from './video.presenter';

const vdTask = (overrides: Parameters<typeof taskRecord>[0] = {}) =>
  taskRecord({
    id: 'task_v',
    family: 'vd',
    model: 'vdq3',
    nativeStatus: 'created',
    createdAt: 1_700_000_000_500,
    requestSnapshot: { prompt: 'p', duration: 5, resolution: '1080p', aspect_ratio: '1:1' },
    ...overrides,
  });

describe('the Video object', () => {
  it('maps the gateway phases and the family status words onto the four statuses', () => {
    expect(videoStatus(vdTask({ phase: 'submitting' }))).toBe('queued');
    expect(videoStatus(vdTask({ phase: 'active', nativeStatus: 'queueing' }))).toBe('queued');
    expect(videoStatus(vdTask({ phase: 'active', nativeStatus: 'processing' }))).toBe('in_progress');
    expect(videoStatus(taskRecord({ phase: 'active', nativeStatus: 'RUNNING' }))).toBe('in_progress');
    expect(videoStatus(taskRecord({ phase: 'active', nativeStatus: 'PENDING' }))).toBe('queued');
    expect(videoStatus(vdTask({ phase: 'succeeded' }))).toBe('completed');
    expect(videoStatus(vdTask({ phase: 'failed' }))).toBe('failed');
  });

  it('shows the stored request, times in Unix seconds, and the error of a failed task', () => {
    const done = presentVideo(
      vdTask({ phase: 'succeeded', progress: 40, finishedAt: 1_700_000_009_900 }),
      1_700_100_000_000,
    );
    expect(done).toEqual({
      id: 'task_v',
      object: 'video',
      model: 'vdq3',
      status: 'completed',
      progress: 100,
      created_at: 1_700_000_000,
      completed_at: 1_700_000_009,
      expires_at: 1_700_100_000,
      prompt: 'p',
      seconds: '5',
      size: '1080x1080',
      remixed_from_video_id: null,
      error: null,
    });
    const failed = presentVideo(
      vdTask({ phase: 'failed', failureCode: 'CreationPolicyViolation', failureReason: 'no' }),
      null,
    );
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'CreationPolicyViolation', message: 'no' } });
  });

  it('tells the end of a task created here as video.completed or video.failed', () => {
    expect(presentVideoEvent(vdTask({ phase: 'succeeded' }), 1_700_000_100_000, null)).toMatchObject({
      object: 'event',
      type: 'video.completed',
      created_at: 1_700_000_100,
      data: { id: 'task_v', status: 'completed' },
    });
    expect(presentVideoEvent(vdTask({ phase: 'failed' }), 0, null).type).toBe('video.failed');
  });

  it("answers an Idempotency-Key retry of a task created here in this face's shape", () => {
    registerTaskFace({ name: OPENAI_FACE, createdBody: (task) => presentVideo(task, null), callbackBody: () => ({}) });
    const task = vdTask({ creationEcho: { model: 'vdq3', [TASK_FACE_ECHO]: OPENAI_FACE } });
    expect(taskFaceOf(task)?.name).toBe(OPENAI_FACE);
    const families = new FamilyRegistry(FAMILIES);
    expect(families.presentCreated(task, 'req_1').body).toMatchObject({ id: 'task_v', object: 'video' });
    // A task of the family's own route keeps the family's answer.
    expect(families.presentCreated(vdTask({ creationEcho: { model: 'vdq3' } }), 'req_1').body).toMatchObject({
      task_id: 'task_v',
    });
  });
});
