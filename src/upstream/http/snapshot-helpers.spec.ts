import { readVideos } from './snapshot-helpers';

describe('readVideos', () => {
  it('reads each entry with a URL, the watermarked copy under the field the vendor names', () => {
    const list = [
      {
        id: 'v1',
        url: 'http://x/v.mp4',
        cover_url: 'http://x/c.png',
        watermarked_url: 'http://x/w.mp4',
        duration: '5',
      },
      { id: 'v2', url: '' },
      'not an entry',
      { url: 'http://x/only.mp4', watermark_url: 'http://x/other.mp4' },
    ];
    expect(readVideos(list, 'watermarked_url')).toEqual([
      {
        id: 'v1',
        url: 'http://x/v.mp4',
        coverUrl: 'http://x/c.png',
        watermarkUrl: 'http://x/w.mp4',
        durationSeconds: 5,
      },
      { url: 'http://x/only.mp4' },
    ]);
  });

  it('reads no videos from what is not a list', () => {
    expect(readVideos(undefined, 'watermark_url')).toEqual([]);
    expect(readVideos({ url: 'http://x/v.mp4' }, 'watermark_url')).toEqual([]);
  });
});
