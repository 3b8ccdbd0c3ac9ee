import { toAxSnapshot } from './ax.fetch';
import { AX_STATUS } from './ax.status';

const answer = (output: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  request_id: 'r',
  output,
  ...extra,
});

describe('ax status table', () => {
  const expected: Record<string, string> = {
    PENDING: 'queued',
    RUNNING: 'running',
    SUCCEEDED: 'succeeded',
    FAILED: 'failed',
    CANCELED: 'cancelled',
    UNKNOWN: 'unknown',
    running: 'running',
    SUSPENDED: 'unknown',
  };
  it.each(Object.entries(expected))('%s -> %s', (word, state) => {
    expect(toAxSnapshot(answer({ task_status: word })).state).toBe(state);
  });

  it('covers exactly the documented words', () => {
    expect([...AX_STATUS.keys()].sort()).toEqual(['CANCELED', 'FAILED', 'PENDING', 'RUNNING', 'SUCCEEDED', 'UNKNOWN']);
  });
});

describe('toAxSnapshot', () => {
  it('keeps the failure code and message', () => {
    expect(
      toAxSnapshot(
        answer({
          task_status: 'FAILED',
          code: 'DataInspectionFailed',
          message: 'input image may contain inappropriate content',
        }),
      ),
    ).toMatchObject({
      state: 'failed',
      failureCode: 'DataInspectionFailed',
      failureReason: 'input image may contain inappropriate content',
    });
  });

  it('reads no video while running and takes an explicit progress', () => {
    const snapshot = toAxSnapshot(answer({ task_status: 'RUNNING', progress: '40%' }));
    expect(snapshot.videos).toEqual([]);
    expect(snapshot.progress).toBe(40);
  });

  it('never throws on strange payloads', () => {
    expect(toAxSnapshot('oops')).toMatchObject({ state: 'unknown', raw: 'oops' });
    expect(toAxSnapshot({ output: 'x', usage: [1] })).toMatchObject({ state: 'unknown', videos: [] });
    expect(toAxSnapshot({ output: { task_status: 'SUCCEEDED', video_url: 7 } })).toMatchObject({
      state: 'succeeded',
      videos: [{ url: '7' }],
    });
  });
});
