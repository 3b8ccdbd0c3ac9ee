import { GatewayError } from '../../platform/errors';
import { avi, bmp, dataUrl, gif, jpeg, mp4, png, webp } from '../../../test/fixtures/media';
import {
  ImageLimits,
  MiB,
  base64DecodedLength,
  checkImageDataUrl,
  checkMediaUrl,
  checkVideoDataUrl,
  parseBase64DataUrl,
  parseHttpUrl,
  pngHasTransparency,
  probeImage,
  probeVideo,
  redactBase64,
  urlPathExtension,
} from './media-probe';

function errorOf(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  throw new Error('expected a GatewayError');
}

const LIMITS: ImageLimits = {
  formats: ['jpg', 'png', 'bmp', 'webp'],
  minSide: 240,
  maxSide: 8000,
  maxAspectRatio: 8,
  maxBytes: 20 * MiB,
  allowPngTransparency: false,
};

describe('parseBase64DataUrl', () => {
  it.each([
    ['data:image/png;base64,iVBORw0KGgo=', 'image/png', 8],
    ['DATA:Image/PNG;base64,AAAA', 'image/png', 3],
    ['data:image/jpeg;name=a.jpg;base64,AAA', 'image/jpeg', 2],
  ])('parses %s', (value, mime, bytes) => {
    expect(parseBase64DataUrl(value, 'p')).toEqual({
      mime,
      base64: value.slice(value.indexOf(',') + 1),
      byteLength: bytes,
    });
  });

  it.each([
    ['no base64 marker', 'data:image/png,AAAA'],
    ['no MIME type', 'data:;base64,AAAA'],
    ['characters outside the alphabet', 'data:image/png;base64,AA@A'],
    ['whitespace', 'data:image/png;base64,AAAA AAAA'],
    ['base64url alphabet', 'data:image/png;base64,AA-_'],
    ['impossible length', 'data:image/png;base64,AAAAA'],
    ['misplaced padding', 'data:image/png;base64,AA=A'],
    ['padding on a short group', 'data:image/png;base64,AAA=A'],
    ['padding that does not complete a group', 'data:image/png;base64,AA='],
    ['empty payload', 'data:image/png;base64,'],
  ])('rejects %s, naming the param', (_, value) => {
    const err = errorOf(() => parseBase64DataUrl(value, 'input.media[0].url'));
    expect([err.status, err.code, err.param]).toEqual([400, 'invalid_request', 'input.media[0].url']);
    expect(err.message).not.toContain('AAAA');
  });

  it('computes the decoded length without decoding', () => {
    for (const n of [1, 2, 3, 4, 1000]) expect(base64DecodedLength(Buffer.alloc(n).toString('base64'))).toBe(n);
    expect(base64DecodedLength('AAA')).toBe(2); // unpadded
  });
});

describe('URLs', () => {
  it.each([
    ['https://x.com/a/B.PNG?sig=a.mp4#f.mov', 'png'],
    ['http://x.com/a/file', null],
    ['https://x.com/', null],
    ['https://x.com/a.b/c', null],
    ['https://x.com/.hidden', null],
    ['https://x.com/clip.MoV', 'mov'],
    ['https://x.com/a%2Emp4', null], // an encoded dot is not a path extension
    ['https://x.com/a.m%70%34', 'mp4'],
  ])('extension of %s is %s', (url, ext) => expect(urlPathExtension(url)).toBe(ext));

  it.each(['HTTPS://X.COM/a.png', 'http://x.com:8080/a', 'https://127.0.0.1/sample.png'])('accepts %j', (url) => {
    expect(parseHttpUrl(url, 'u').protocol).toMatch(/^https?:$/);
  });

  it.each([
    'ftp://x.com/a.png',
    'file:///etc/passwd',
    'x.com/a.png',
    'javascript:alert(1)',
    'http://',
    '',
    'https:x.com/a.png',
    ' https://x.com/a.png',
    'https://x.com/a b.png',
    'https:///x.com',
  ])('rejects %j as not http(s)', (url) => {
    expect(errorOf(() => parseHttpUrl(url, 'u')).param).toBe('u');
  });

  it('accepts an allowed extension or none, rejects another', () => {
    expect(checkMediaUrl('https://x.com/a.wav', ['wav', 'mp3'], 'v', 'audio').hostname).toBe('x.com');
    expect(checkMediaUrl('https://x.com/voice', ['wav', 'mp3'], 'v', 'audio').hostname).toBe('x.com');
    const err = errorOf(() => checkMediaUrl('https://x.com/a.ogg', ['wav', 'mp3'], 'v', 'audio'));
    expect([err.param, err.message]).toEqual(['v', "v: '.ogg' is not a supported audio format (allowed: wav, mp3)."]);
  });
});

describe('probeImage', () => {
  it.each([
    ['png', png(300, 200)],
    ['jpg', jpeg(300, 200)],
    ['bmp', bmp(300, 200)],
    ['webp', webp(300, 200)],
    ['gif', gif(300, 200)],
  ])('reads %s headers', (format, bytes) => {
    expect(probeImage(bytes)).toMatchObject({ format, width: 300, height: 200 });
  });

  it('returns null for bytes that are not an image', () => {
    expect(probeImage(Buffer.from('hello world, not an image'))).toBeNull();
    expect(probeImage(Buffer.alloc(0))).toBeNull();
  });

  it.each([
    [0, false, false],
    [2, false, false],
    [3, false, false],
    [4, false, true],
    [6, false, true],
    [2, true, true],
    [3, true, true],
    [0, true, true],
  ] as const)('PNG colour type %i with tRNS=%s is transparent: %s', (colourType, trns, transparent) => {
    const bytes = png(10, 10, { colourType, trns });
    expect(pngHasTransparency(bytes)).toBe(transparent);
    expect(probeImage(bytes)?.hasTransparency).toBe(transparent);
  });

  it('leaves transparency null for non-PNG formats', () =>
    expect(probeImage(jpeg(10, 10))?.hasTransparency).toBeNull());
});

describe('checkImageDataUrl', () => {
  const check = (url: string, limits = LIMITS) => checkImageDataUrl(url, limits, 'img');

  it.each([
    ['PNG 240x240', dataUrl('image/png', png(240, 240))],
    ['PNG 8000x1000', dataUrl('image/png', png(8000, 1000))],
    ['PNG 240x1920 (1:8)', dataUrl('image/png', png(240, 1920))],
    ['PNG 1920x240 (8:1)', dataUrl('image/png', png(1920, 240))],
    ['JPEG', dataUrl('image/jpeg', jpeg(1000, 800))],
    ['JPEG as image/jpg', dataUrl('image/jpg', jpeg(1000, 800))],
    ['BMP', dataUrl('image/bmp', bmp(640, 480))],
    ['WEBP', dataUrl('image/webp', webp(640, 480))],
  ])('accepts %s', (_, url) => expect(check(url).width).toBeGreaterThanOrEqual(240));

  it.each([
    ['239 px width', dataUrl('image/png', png(239, 240)), 'width 239 px'],
    ['239 px height', dataUrl('image/png', png(240, 239)), 'height 239 px'],
    ['8001 px width', dataUrl('image/png', png(8001, 1200)), 'width 8001 px'],
    ['1:9 ratio', dataUrl('image/png', png(240, 2160)), 'aspect ratio'],
    ['9:1 ratio', dataUrl('image/png', png(2160, 240)), 'aspect ratio'],
    ['RGBA PNG', dataUrl('image/png', png(300, 300, { colourType: 6 })), 'transparency'],
    ['PNG with tRNS', dataUrl('image/png', png(300, 300, { trns: true })), 'transparency'],
    ['GIF', dataUrl('image/gif', gif(300, 300)), 'image/gif is not supported'],
    ['GIF bytes labelled PNG', dataUrl('image/png', gif(300, 300)), 'format gif is not supported'],
    ['PNG bytes labelled JPEG', dataUrl('image/jpeg', png(300, 300)), 'declares jpg but the image is png'],
    ['a video MIME', dataUrl('video/mp4', mp4(5)), 'must hold an image'],
    ['garbage bytes', dataUrl('image/png', Buffer.from('not an image at all')), 'not a readable image'],
    ['over 20 MiB', dataUrl('image/png', png(300, 300, { padTo: 20 * MiB + 1 })), 'larger than 20 MB'],
  ])('rejects %s', (_, url, message) => {
    const err = errorOf(() => check(url));
    expect([err.status, err.code, err.param]).toEqual([400, 'invalid_request', 'img']);
    expect(err.message).toContain(message);
  });

  it('rejects an oversized payload before decoding it', () => {
    const url = dataUrl('image/png', png(300, 300, { padTo: 20 * MiB + 3 }));
    const from = jest.spyOn(Buffer, 'from');
    try {
      expect(errorOf(() => check(url)).message).toContain('larger than 20 MB');
      expect(from).not.toHaveBeenCalled();
    } finally {
      from.mockRestore();
    }
  });

  it('accepts exactly 20 MiB', () => {
    expect(check(dataUrl('image/png', png(300, 300, { padTo: 20 * MiB }))).byteLength).toBe(20 * MiB);
  });

  it('has no ratio rule when the limits name none, and allows transparency when told', () => {
    expect(check(dataUrl('image/png', png(240, 2160)), { ...LIMITS, maxAspectRatio: undefined }).height).toBe(2160);
    expect(
      check(dataUrl('image/png', png(300, 300, { colourType: 6 })), { ...LIMITS, allowPngTransparency: true })
        .hasTransparency,
    ).toBe(true);
  });
});

describe('videos', () => {
  const limits = { containers: ['mp4', 'mov'] as const, maxBytes: 100 * MiB, minSeconds: 1, maxSeconds: 30 };

  it('reads container and duration from the movie header, and knows AVI by its RIFF header', () => {
    expect(probeVideo(mp4(5))).toEqual({ container: 'mp4', durationSeconds: 5 });
    expect(probeVideo(mp4(2.5, 'qt  '))).toEqual({ container: 'mov', durationSeconds: 2.5 });
    expect(probeVideo(avi())).toEqual({ container: 'avi', durationSeconds: 5 });
    expect(probeVideo(avi(8.4))).toEqual({ container: 'avi', durationSeconds: 8.4 });
    expect(probeVideo(avi(null))).toEqual({ container: 'avi', durationSeconds: null });
    expect(probeVideo(webp(10, 10))).toBeNull(); // RIFF, but not AVI
    expect(probeVideo(png(10, 10))).toBeNull();
    expect(probeVideo(Buffer.alloc(0))).toBeNull();
  });

  it.each([1, 30])('accepts a %i s inline video', (s) =>
    expect(checkVideoDataUrl(dataUrl('video/mp4', mp4(s)), limits, 'v').durationSeconds).toBe(s),
  );

  it.each([
    ['0.9 s', dataUrl('video/mp4', mp4(0.9)), 'duration 0.9 s'],
    ['31 s', dataUrl('video/quicktime', mp4(31, 'qt  ')), 'duration 31 s'],
    ['webm', dataUrl('video/webm', mp4(5)), 'video/webm is not supported'],
    ['not a video', dataUrl('video/mp4', png(10, 10)), 'not a readable MP4/MOV'],
    ['an image MIME', dataUrl('image/png', png(300, 300)), 'must hold a video'],
  ])('rejects %s', (_, url, message) => {
    const err = errorOf(() => checkVideoDataUrl(url, limits, 'v'));
    expect([err.status, err.param]).toEqual([400, 'v']);
    expect(err.message).toContain(message);
  });

  describe('with an upper duration limit only', () => {
    const upTo8 = { containers: ['mp4', 'mov', 'avi'] as const, maxBytes: MiB, maxSeconds: 8 };

    it.each([
      ['an MP4 of 8 s', dataUrl('video/mp4', mp4(8))],
      ['an MP4 of 0.1 s', dataUrl('video/mp4', mp4(0.1))],
      ['an AVI of 8 s', dataUrl('video/x-msvideo', avi(8))],
    ])('accepts %s', (_, url) => expect(checkVideoDataUrl(url, upTo8, 'v').durationSeconds).toBeLessThanOrEqual(8));

    it.each([
      ['an MP4 of 8.5 s', dataUrl('video/mp4', mp4(8.5)), 'v: video duration 8.5 s is longer than 8 s.'],
      ['an AVI of 9 s', dataUrl('video/avi', avi(9)), 'v: video duration 9 s is longer than 8 s.'],
      ['an AVI without a main header', dataUrl('video/avi', avi(null)), 'v is not a readable MP4/MOV/AVI video.'],
    ])('rejects %s', (_, url, message) => {
      expect(errorOf(() => checkVideoDataUrl(url, upTo8, 'v'))).toMatchObject({ status: 400, param: 'v', message });
    });

    it('states the rule behind the limit when given one', () => {
      const rule = { ...upTo8, maxSeconds: 5, durationRule: 'two videos: at most 5 s each' };
      expect(errorOf(() => checkVideoDataUrl(dataUrl('video/mp4', mp4(6)), rule, 'videos[1]')).message).toBe(
        'videos[1]: video duration 6 s is longer than 5 s (two videos: at most 5 s each).',
      );
    });
  });

  describe('without duration limits (container and size only)', () => {
    const files = { containers: ['mp4', 'mov', 'avi'] as const, maxBytes: 1000 };

    it.each([
      ['video/mp4', mp4(40)],
      ['video/quicktime', mp4(3)],
      ['video/mp4', mp4(3, 'qt  ')],
      ['video/x-msvideo', avi()],
      ['video/avi', avi()],
    ])('accepts %s holding a matching container', (mime, bytes) => {
      expect(checkVideoDataUrl(dataUrl(mime, bytes), files, 'v')).toMatchObject({ mime, byteLength: bytes.length });
    });

    it.each([
      ['three zero bytes', 'data:video/mp4;base64,AAAA', 'not a readable MP4/MOV/AVI video'],
      ['an image', dataUrl('video/mp4', png(10, 10)), 'not a readable MP4/MOV/AVI video'],
      ['AVI bytes labelled MP4', dataUrl('video/mp4', avi()), 'declares MP4 but the video is AVI'],
      ['MP4 bytes labelled AVI', dataUrl('video/x-msvideo', mp4(5)), 'declares AVI but the video is MP4'],
      ['over the size', dataUrl('video/mp4', Buffer.concat([mp4(5), Buffer.alloc(1000)])), 'larger than'],
    ])('rejects %s', (_, url, message) => {
      const err = errorOf(() => checkVideoDataUrl(url, files, 'v'));
      expect([err.status, err.param]).toEqual([400, 'v']);
      expect(err.message).toContain(message);
    });
  });
});

describe('redactBase64', () => {
  it('replaces data URLs everywhere, and bare Base64 when asked, leaving other values and the input alone', () => {
    const image = dataUrl('image/png', png(240, 240));
    const bare = Buffer.alloc(300, 7).toString('base64');
    const input = {
      a: [image, 'https://x.com/a.png', { b: bare, c: 5, d: null, e: true }],
      f: 'short',
      g: 'data:video/mp4;base64,AAAA',
    };
    expect(redactBase64(input)).toEqual({
      ...input,
      a: [`[base64 image/png ${png(240, 240).length} bytes]`, input.a[1], input.a[2]],
      g: '[base64 video/mp4 3 bytes]',
    });
    const out = redactBase64(input, { bareBase64: true });
    expect(out).toEqual({
      a: [
        `[base64 image/png ${png(240, 240).length} bytes]`,
        'https://x.com/a.png',
        { b: '[base64 300 bytes]', c: 5, d: null, e: true },
      ],
      f: 'short',
      g: '[base64 video/mp4 3 bytes]',
    });
    expect(input.a[0]).toBe(image);
    expect(JSON.stringify(out)).not.toContain('iVBOR');
  });

  it('keeps long prompts: with spaces always, a single long word unless bare Base64 is asked for', () => {
    const prompt = 'a cat '.repeat(100);
    expect(redactBase64({ prompt }, { bareBase64: true })).toEqual({ prompt });
    const word = 'a'.repeat(5000);
    expect(redactBase64({ word })).toEqual({ word });
  });
});
