import { toVdSnapshot } from './vd.fetch';
import { VD_STATUS } from './vd.status';

describe('vd status table', () => {
  it.each([
    ['created', 'queued'],
    ['queueing', 'queued'],
    ['processing', 'running'],
    ['success', 'succeeded'],
    ['failed', 'failed'],
    ['Success', 'succeeded'],
    ['scheduling', 'unknown'],
  ])('%s -> %s', (word, state) => {
    expect(toVdSnapshot({ state: word }).state).toBe(state);
  });

  it('covers exactly the documented words', () => {
    expect([...VD_STATUS.keys()]).toEqual(['created', 'queueing', 'processing', 'success', 'failed']);
  });
});

describe('toVdSnapshot', () => {
  it('keeps err_code as the failure code and reason', () => {
    expect(toVdSnapshot({ id: '1', state: 'failed', err_code: 'AuditSubmitIllegal' })).toMatchObject({
      failureCode: 'AuditSubmitIllegal',
      failureReason: 'AuditSubmitIllegal',
    });
    expect(toVdSnapshot({ id: '1', state: 'failed', err_code: 'X', err_msg: 'prompt rejected' })).toMatchObject({
      failureCode: 'X',
      failureReason: 'prompt rejected',
    });
  });

  it('reads string numbers and survives odd shapes', () => {
    expect(
      toVdSnapshot({ state: 'success', creations: [{ url: 'http://x/v.mp4', duration: '8' }, 'junk', { id: 2 }] })
        .videos,
    ).toEqual([{ url: 'http://x/v.mp4', durationSeconds: 8 }]);
    expect(toVdSnapshot(null)).toMatchObject({ state: 'unknown', videos: [] });
    expect(toVdSnapshot({ state: ['success'], creations: 'x' })).toMatchObject({ state: 'unknown', nativeStatus: '' });
  });
});
