import { taskRecord } from '../../../../test/factories/tasks';
import { presentAxTask } from './ax-task.presenter';

const CREATED = Date.UTC(2026, 10, 24, 9, 0, 0, 0);

describe('presentAxTask', () => {
  it('a running task: only the fields that have a value, as keys', () => {
    const task = taskRecord({
      id: 'task_r',
      phase: 'active',
      nativeStatus: 'RUNNING',
      createdAt: CREATED,
      lastNative: { output: { scheduled_time: '2026-11-24 09:00:01.000' } },
    });
    const answer = presentAxTask(task, 'req_1');
    expect(answer).toStrictEqual({
      request_id: 'req_1',
      output: {
        task_id: 'task_r',
        task_status: 'RUNNING',
        submit_time: '2026-11-24 09:00:00.000',
        scheduled_time: '2026-11-24 09:00:01.000',
      },
    });
    expect(JSON.parse(JSON.stringify(answer))).toStrictEqual(answer);
  });

  it('a succeeded task: end time, video URL and usage', () => {
    const task = taskRecord({
      phase: 'succeeded',
      nativeStatus: 'SUCCEEDED',
      createdAt: CREATED,
      finishedAt: CREATED + 61_500,
      result: { videos: [{ url: 'https://cdn.example.com/v.mp4' }], voices: [] } as never,
      nativeUsage: { duration: 5 },
    });
    expect(presentAxTask(task, 'req_2')).toStrictEqual({
      request_id: 'req_2',
      output: {
        task_id: 'task_1',
        task_status: 'SUCCEEDED',
        submit_time: '2026-11-24 09:00:00.000',
        end_time: '2026-11-24 09:01:01.500',
        video_url: 'https://cdn.example.com/v.mp4',
      },
      usage: { duration: 5 },
    });
  });

  it('a failed task carries its code and message; another phase never does', () => {
    const failed = taskRecord({
      phase: 'failed',
      nativeStatus: 'FAILED',
      createdAt: CREATED,
      finishedAt: CREATED,
      failureCode: 'InvalidParameter',
      failureReason: 'bad image',
    });
    expect(presentAxTask(failed, 'r').output).toStrictEqual({
      task_id: 'task_1',
      task_status: 'FAILED',
      submit_time: '2026-11-24 09:00:00.000',
      end_time: '2026-11-24 09:00:00.000',
      code: 'InvalidParameter',
      message: 'bad image',
    });
    const running = taskRecord({
      phase: 'active',
      nativeStatus: 'RUNNING',
      createdAt: CREATED,
      failureCode: 'x',
      failureReason: 'y',
    });
    expect(Object.keys(presentAxTask(running, 'r').output)).toEqual(['task_id', 'task_status', 'submit_time']);
  });
});
