import { GatewayError } from '../../../platform/errors';
import { addMarks, checkFrameIndex, checkParsedVideo, deleteMarks, initSource } from './kl-session.rules';

function param(fn: () => unknown): string | null {
  try {
    fn();
  } catch (error) {
    if (error instanceof GatewayError && error.status === 400) return error.param;
    throw error;
  }
  throw new Error('expected a 400');
}

const p = (x: number, y: number) => ({ x, y });

describe('kl session rules', () => {
  it('init: exactly one of video_id and video_url; URL scheme and extension', () => {
    expect(initSource({ video_url: 'https://x.test/a.MP4?sig=1' })).toEqual({
      kind: 'video_url',
      videoUrl: 'https://x.test/a.MP4?sig=1',
    });
    expect(initSource({ video_url: 'https://x.test/clip' })).toMatchObject({ kind: 'video_url' });
    expect(initSource({ video_id: 'video_x_0' })).toEqual({ kind: 'video_id', videoId: 'video_x_0' });
    expect(param(() => initSource({}))).toBe('video_url');
    expect(param(() => initSource({ video_id: '', video_url: '' }))).toBe('video_url');
    expect(param(() => initSource({ video_id: 'v', video_url: 'https://x.test/a.mp4' }))).toBe('video_id');
    expect(param(() => initSource({ video_url: 'ftp://x.test/a.mp4' }))).toBe('video_url');
    expect(param(() => initSource({ video_url: 'https://x.test/a.avi' }))).toBe('video_url');
  });

  it('init: a video URL must name a public host, unless the operator allows others', () => {
    expect(param(() => initSource({ video_url: 'http://192.168.1.2/a.mp4' }))).toBe('video_url');
    expect(initSource({ video_url: 'http://192.168.1.2/a.mp4' }, { allowPrivateHosts: true })).toMatchObject({
      kind: 'video_url',
    });
  });

  const video = { fps: 30, originalDuration: 5, width: 1280, height: 720, totalFrame: 150 };
  it('source video: 2-5 s or 7-10 s, sides 720-2160 px, 24/30/60 fps', () => {
    for (const v of [
      video,
      { ...video, originalDuration: 2 },
      { ...video, originalDuration: 7 },
      { ...video, originalDuration: 10, fps: 60 },
      { ...video, fps: 29.97, width: 2160, height: 2160 },
    ]) {
      expect(() => checkParsedVideo(v, 'video_url')).not.toThrow();
    }
    for (const v of [
      { ...video, originalDuration: 6 },
      { ...video, originalDuration: 1 },
      { ...video, originalDuration: 11 },
      { ...video, width: 719 },
      { ...video, height: 2161 },
      { ...video, fps: 25 },
    ]) {
      expect(param(() => checkParsedVideo(v, 'video_url'))).toBe('video_url');
    }
  });

  it('frame_index within 0..total_frame-1', () => {
    expect(() => checkFrameIndex(149, 150)).not.toThrow();
    expect(param(() => checkFrameIndex(150, 150))).toBe('frame_index');
  });

  it('at most 10 marked frames; a marked frame still takes points', () => {
    let marks = {};
    for (let f = 0; f < 10; f++) marks = addMarks(marks, f, [p(0.1, 0.1)]).marks;
    expect(param(() => addMarks(marks, 10, [p(0.5, 0.5)]))).toBe('frame_index');
    expect(() => addMarks(marks, 3, [p(0.5, 0.5)])).not.toThrow();
  });

  it('at most 10 points per frame, counted across requests; repeated points count once', () => {
    const first = addMarks(
      {},
      0,
      Array.from({ length: 8 }, (_, i) => p(i / 10, 0)),
    );
    const second = addMarks(first.marks, 0, [p(0, 0), p(0.9, 0.9), p(0.8, 0.8)]);
    expect(second.added).toEqual([p(0.9, 0.9), p(0.8, 0.8)]);
    expect(second.marks['0']).toHaveLength(10);
    expect(param(() => addMarks(second.marks, 0, [p(0.7, 0.7)]))).toBe('points');
  });

  it('delete takes only points exactly as added; an emptied frame frees its slot', () => {
    const { marks } = addMarks({}, 4, [p(0.25, 0.5), p(0.75, 0.5)]);
    expect(param(() => deleteMarks(marks, 4, [p(0.25, 0.50001)]))).toBe('points');
    expect(param(() => deleteMarks(marks, 5, [p(0.25, 0.5)]))).toBe('points');
    const after = deleteMarks(marks, 4, [p(0.25, 0.5)]);
    expect(after['4']).toEqual([p(0.75, 0.5)]);
    expect(deleteMarks(after, 4, [p(0.75, 0.5)])).toEqual({});
  });
});
