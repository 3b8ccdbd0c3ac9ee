import { GatewayError } from '../../../platform/errors';
import { avi, dataUrl, mp4, pngHeader, pngHeaderDataUrl } from '../../../../test/fixtures/media';
import { checkVdImage, checkVdVideo, isHttpUrl, redactBase64 } from './vd-media';

const png = pngHeaderDataUrl;

function paramOf(fn: () => unknown): string | null {
  try {
    fn();
  } catch (e) {
    if (e instanceof GatewayError && e.status === 400 && e.code === 'invalid_request') return e.param;
    throw e;
  }
  throw new Error('expected a 400');
}

describe('vd media checks', () => {
  it('accepts png/jpeg/jpg/webp URLs and URLs without an extension', () => {
    for (const url of [
      'https://x.example/a.png',
      'http://x.example/a.JPEG',
      'https://x.example/a.jpg?sig=1',
      'https://x.example/a.webp',
      'https://x.example/img/42',
    ]) {
      expect(checkVdImage(url, 'images[0]')).toEqual({ kind: 'url', url });
    }
  });

  it('rejects other formats, schemes, bare Base64 and non-strings, naming the param', () => {
    for (const value of [
      'https://x.example/a.gif',
      'ftp://x.example/a.png',
      pngHeader(200, 200).toString('base64'),
      'data:image/png,abc',
      7,
    ]) {
      expect(paramOf(() => checkVdImage(value, 'subjects[1].images[0]'))).toBe('subjects[1].images[0]');
    }
  });

  it('checks Base64 images: declared type, readable bytes, same format, minimum side', () => {
    expect(checkVdImage(png(128, 128), 'images[0]', 128)).toEqual({
      kind: 'base64',
      mime: 'image/png',
      byteLength: 33,
    });
    expect(paramOf(() => checkVdImage(png(128, 127), 'images[0]', 128))).toBe('images[0]');
    expect(paramOf(() => checkVdImage(png(200, 200, 'image/gif'), 'images[0]'))).toBe('images[0]');
    expect(paramOf(() => checkVdImage(png(200, 200, 'image/webp'), 'images[0]'))).toBe('images[0]');
    expect(paramOf(() => checkVdImage('data:image/png;base64,AAAA', 'images[0]'))).toBe('images[0]');
    expect(checkVdImage(png(2, 2), 'images[0]').kind).toBe('base64'); // no minimum unless asked
  });

  it('checks videos: format by extension or MIME type, Base64 size limit', () => {
    expect(checkVdVideo('https://x.example/a.avi', 'videos[0]').kind).toBe('url');
    expect(paramOf(() => checkVdVideo('https://x.example/a.webm', 'videos[1]'))).toBe('videos[1]');
    const bytes = avi();
    const video = dataUrl('video/x-msvideo', bytes);
    expect(checkVdVideo(video, 'videos[0]', { maxBytes: bytes.length })).toEqual({
      kind: 'base64',
      mime: 'video/x-msvideo',
      byteLength: bytes.length,
    });
    expect(paramOf(() => checkVdVideo(video, 'videos[0]', { maxBytes: bytes.length - 1 }))).toBe('videos[0]');
    expect(paramOf(() => checkVdVideo(video.replace('video/x-msvideo', 'video/webm'), 'videos[0]'))).toBe('videos[0]');
    expect(paramOf(() => checkVdVideo('clip.mp4', 'videos[0]'))).toBe('videos[0]');
  });

  it('decodes Base64 videos: the bytes must be a readable video of the declared container', () => {
    for (const [mime, bytes] of [
      ['video/mp4', mp4(5)],
      ['video/quicktime', mp4(8, 'qt  ')],
      ['video/avi', avi()],
    ] as const)
      expect(checkVdVideo(dataUrl(mime, bytes), 'videos[0]')).toMatchObject({ kind: 'base64', mime });
    for (const value of [
      'data:video/mp4;base64,AAAA',
      dataUrl('video/mp4', Buffer.from('....ftypisom')),
      dataUrl('video/quicktime', Buffer.alloc(30)),
      dataUrl('video/mp4', avi()),
      dataUrl('video/x-msvideo', mp4(5)),
    ])
      expect(paramOf(() => checkVdVideo(value, 'subjects[0].videos[0]'))).toBe('subjects[0].videos[0]');
  });

  it('knows http(s) URLs', () => {
    expect(['https://a.example/x', 'http://a.example'].map(isHttpUrl)).toEqual([true, true]);
    expect(['ftp://a.example/x', 'not a url', 'javascript:alert(1)', 'https://'].map(isHttpUrl)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('redacts Base64 data URLs to a placeholder', () => {
    expect(redactBase64({ images: ['https://x.example/a.png', png(1, 1)] })).toEqual({
      images: ['https://x.example/a.png', '[base64 image/png 33 bytes]'],
    });
  });
});
