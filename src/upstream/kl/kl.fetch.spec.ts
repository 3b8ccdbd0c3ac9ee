import { toKlSnapshot } from './kl.fetch';
import { KL_STATUS } from './kl.status';

describe('kl status table', () => {
  it.each([
    ['submitted', 'queued'],
    ['processing', 'running'],
    ['succeed', 'succeeded'],
    ['failed', 'failed'],
    ['SUCCEED', 'succeeded'],
    ['archived', 'unknown'],
    ['', 'unknown'],
    ['constructor', 'unknown'],
  ])('%j -> %s', (word, state) => {
    expect(toKlSnapshot({ task_status: word }, null).state).toBe(state);
  });

  it('covers exactly the documented words', () => {
    expect([...KL_STATUS.keys()]).toEqual(['submitted', 'processing', 'succeed', 'failed']);
  });
});

describe('toKlSnapshot', () => {
  it('reads voices, including numeric owners', () => {
    const snapshot = toKlSnapshot(
      {
        task_status: 'succeed',
        task_result: {
          voices: [
            { voice_id: 'v1', voice_name: 'Ann', trial_url: 'http://x/a.mp3', owned_by: 12345 },
            { voice_name: 'no id' },
          ],
        },
      },
      null,
    );
    expect(snapshot.voices).toEqual([
      { voiceId: 'v1', voiceName: 'Ann', trialUrl: 'http://x/a.mp3', ownedBy: '12345' },
    ]);
  });

  it('skips videos without a URL and ignores unreadable durations', () => {
    const snapshot = toKlSnapshot(
      { task_status: 'succeed', task_result: { videos: [{ id: 'a' }, { url: 'http://x/v.mp4', duration: 'long' }] } },
      null,
    );
    expect(snapshot.videos).toEqual([{ url: 'http://x/v.mp4' }]);
  });

  it('survives missing and wrongly typed fields', () => {
    expect(toKlSnapshot({ task_result: 'oops' }, 'raw')).toEqual({
      state: 'unknown',
      nativeStatus: '',
      videos: [],
      voices: [],
      raw: 'raw',
    });
    expect(toKlSnapshot(undefined, 'raw')).toEqual({
      state: 'unknown',
      nativeStatus: '',
      videos: [],
      voices: [],
      raw: 'raw',
    });
    expect(toKlSnapshot({ task_status: 42, task_result: { videos: 'x', voices: {} } }, null).state).toBe('unknown');
  });

  it('derives progress from the state and reports a failure reason only for failed tasks', () => {
    expect(toKlSnapshot({ task_status: 'submitted' }, null).progress).toBe(0);
    expect(toKlSnapshot({ task_status: 'processing', task_status_msg: 'working' }, null)).not.toHaveProperty(
      'failureReason',
    );
    expect(toKlSnapshot({ task_status: 'failed', task_status_msg: '' }, null)).not.toHaveProperty('failureReason');
  });
});
