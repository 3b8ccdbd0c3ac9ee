import { newId } from '../../platform/ids/ids';
import { isSlot, resultSlots, resultStorageKey, upstreamUrlOf } from './result-slots';

describe('result slots', () => {
  const task = {
    result: {
      videos: [
        { url: 'https://cdn/v.mp4', watermarkUrl: 'https://cdn/w.mp4', coverUrl: 'https://cdn/c.png' },
        { url: 'https://cdn/v2.mp4' },
      ],
      voices: [{ voiceId: 'up-1', trialUrl: 'https://cdn/a.mp3' }, { voiceId: 'up-2' }],
    },
  };

  it('names every file a task shows, and only those', () => {
    expect(resultSlots(task)).toEqual([
      { slot: 'v0', url: 'https://cdn/v.mp4' },
      { slot: 'v0w', url: 'https://cdn/w.mp4' },
      { slot: 'v0c', url: 'https://cdn/c.png' },
      { slot: 'v1', url: 'https://cdn/v2.mp4' },
      { slot: 'a0', url: 'https://cdn/a.mp3' },
    ]);
    expect(resultSlots({ result: null })).toEqual([]);
    expect(upstreamUrlOf(task, 'v0c')).toBe('https://cdn/c.png');
    expect(upstreamUrlOf(task, 'a1')).toBeUndefined();
  });

  it('recognises slot names only', () => {
    for (const slot of ['v0', 'v12w', 'v3c', 'a0']) expect(isSlot(slot)).toBe(true);
    for (const slot of ['', 'v', 'x0', 'v0x', '../v0', 'a0w']) expect(isSlot(slot)).toBe(false);
  });

  it('stores files under one of at most 1,024 directories, named by the end of the task ID', () => {
    expect(resultStorageKey('task_01jq0000000000000000000xy7', 'v0c')).toBe('y7/task_01jq0000000000000000000xy7.v0c');
    const directories = new Set(
      Array.from({ length: 20_000 }, () => resultStorageKey(newId('task'), 'v0').split('/')[0]),
    );
    expect(directories.size).toBeGreaterThan(1000);
    expect(directories.size).toBeLessThanOrEqual(1024);
  });
});
