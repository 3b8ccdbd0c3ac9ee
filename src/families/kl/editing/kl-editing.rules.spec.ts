import { GatewayError } from '../../../platform/errors';
import { dataUrl, gif, jpeg, png, serveMedia, webp } from '../../../../test/fixtures/media';
import { RemoteMediaProbe } from '../../common/media-probe-remote';
import {
  checkDurationFits,
  checkKlImage,
  checkKlImageUrls,
  klEditingUpstreamBody,
  validateKlEditingRequest,
} from './kl-editing.rules';

const b64 = (bytes: Buffer) => bytes.toString('base64');

function refusal(fn: () => unknown): { param: string | null; status: number; message: string } {
  try {
    fn();
  } catch (error) {
    if (error instanceof GatewayError) return { param: error.param, status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a 400');
}

const body = (extra: Record<string, unknown> = {}) => ({
  session_id: 'sess_1',
  edit_mode: 'addition',
  image_list: [{ image: 'https://example.com/hat.png' }],
  prompt: 'Using the context of <<<video_1>>>, seamlessly add the hat from <<<image_1>>>',
  ...extra,
});

describe('kl editing images (real JPEG/PNG built in the test)', () => {
  it('accepts raw Base64 JPEG and PNG within the limits, and http(s) URLs ending .jpg/.jpeg/.png or without extension', () => {
    expect(() => checkKlImage(b64(jpeg(300, 300)), 'p')).not.toThrow();
    expect(() => checkKlImage(b64(png(750, 300)), 'p')).not.toThrow(); // exactly 2.5:1
    expect(() => checkKlImage(b64(png(300, 750, { colourType: 6 })), 'p')).not.toThrow();
    for (const url of ['https://x.test/a.JPG', 'http://x.test/a.jpeg?sig=1', 'https://x.test/img'])
      expect(() => checkKlImage(url, 'p')).not.toThrow();
  });

  it.each([
    ['too small (299 px wide)', () => b64(jpeg(299, 600)), /width 299 px/],
    ['too small (299 px high)', () => b64(png(600, 299)), /height 299 px/],
    ['too narrow (1:2.6)', () => b64(png(300, 780)), /aspect ratio/],
    ['too wide (2.6:1)', () => b64(jpeg(780, 300)), /aspect ratio/],
    ['too large (> 10 MB)', () => b64(png(400, 400, { padTo: 10 * 1024 * 1024 + 1 })), /larger than 10 MB/],
    ['wrong format (WEBP)', () => b64(webp(400, 400)), /format webp is not supported/],
    ['wrong format (GIF)', () => b64(gif(400, 400)), /format gif is not supported/],
    ['not an image', () => b64(Buffer.from('hello world, not an image at all')), /not a readable image/],
    ['a data-URL prefix', () => dataUrl('image/png', png(400, 400)), /without a data-URL prefix/],
    ['malformed Base64', () => 'abc$def', /http\(s\) URL or Base64/],
    ['another URL scheme', () => 'ftp://x.test/a.png', /http\(s\) URL/],
    ['a URL with another extension', () => 'https://x.test/a.gif', /'\.gif' is not a supported image format/],
  ])('refuses %s with 400 naming the field', (_name, value, message) => {
    const r = refusal(() => checkKlImage(value(), 'image_list[0].image'));
    expect(r).toMatchObject({ status: 400, param: 'image_list[0].image' });
    expect(r.message).toMatch(message);
  });
});

describe('kl image size messages', () => {
  it('say what to send: "at least 300 px", never an unbounded range', () => {
    const r = refusal(() => checkKlImage(b64(png(200, 400)), 'image_list[0].image'));
    expect(r.message).toBe('image_list[0].image: image width 200 px is too small; it must be at least 300 px.');
  });
});

describe('kl editing images given by URL', () => {
  const probe = new RemoteMediaProbe({ allowPrivate: true, timeoutMs: 1000 });

  it('are fetched in part and checked like Base64 ones; the first failing image by position is named', async () => {
    const server = await serveMedia({
      '/hat.png': png(400, 400),
      '/tiny.jpg': jpeg(100, 100),
      '/cup.png': gif(400, 400),
    });
    try {
      const request = (...images: string[]) =>
        validateKlEditingRequest(
          body({
            image_list: images.map((image) => ({ image })),
            prompt: 'Using the context of <<<video_1>>>, seamlessly add the hat from <<<image_1>>>',
          }),
        );
      await expect(
        checkKlImageUrls(request(server.url('/hat.png'), b64(png(400, 400))), probe),
      ).resolves.toBeUndefined();
      expect(server.requests.map((r) => r.path)).toEqual(['/hat.png']); // Base64 images are not fetched
      await expect(
        checkKlImageUrls(request(server.url('/hat.png'), server.url('/tiny.jpg')), probe),
      ).rejects.toMatchObject({
        status: 400,
        param: 'image_list[1].image',
        message: expect.stringMatching(/width 100 px is too small; it must be at least 300 px/),
      });
      await expect(
        checkKlImageUrls(request(server.url('/cup.png'), server.url('/missing.png')), probe),
      ).rejects.toMatchObject({ param: 'image_list[0].image', message: expect.stringMatching(/format gif/) });
    } finally {
      await server.close();
    }
  });
});

describe('kl editing request rules', () => {
  it('applies defaults and forwards duration as a string', () => {
    const r = validateKlEditingRequest(body({ duration: 10, mode: 'pro' }));
    expect(r).toMatchObject({
      duration: '10',
      mode: 'pro',
      billing: { kind: 'kl-edit', mode: 'pro', durationSeconds: 10 },
    });
    expect(validateKlEditingRequest(body())).toMatchObject({ duration: '5', mode: 'std' });
  });

  it.each([
    ['model_name other than kl-v1-6', { model_name: 'kl-v1' }, 'model_name'],
    ['model other than kl-v1-6', { model: 'kl-v1' }, 'model'],
    ['missing session_id', { session_id: undefined }, 'session_id'],
    ['bad edit_mode', { edit_mode: 'paint' }, 'edit_mode'],
    ['addition without images', { image_list: [] }, 'image_list'],
    ['addition with 3 images', { image_list: [1, 2, 3].map(() => ({ image: 'https://x.test/a.png' })) }, 'image_list'],
    [
      'swap with 2 images',
      {
        edit_mode: 'swap',
        image_list: [1, 2].map(() => ({ image: 'https://x.test/a.png' })),
        prompt: 'swap x from <<<image_1>>> for y from <<<video_1>>>',
      },
      'image_list',
    ],
    ['removal with an image', { edit_mode: 'removal', prompt: 'Delete x from <<<video_1>>>' }, 'image_list'],
    ['image item not an object field', { image_list: [{ url: 'https://x.test/a.png' }] }, 'image_list[0].url'],
    ['<<<image_2>>> with one image', { prompt: 'add <<<image_2>>> to <<<video_1>>>' }, 'prompt'],
    ['<<<video_2>>>', { prompt: 'add <<<image_1>>> to <<<video_2>>>' }, 'prompt'],
    ['prompt over 2500 characters', { prompt: '好'.repeat(2501) }, 'prompt'],
    ['negative_prompt over 2500 characters', { negative_prompt: 'x'.repeat(2501) }, 'negative_prompt'],
    ['empty prompt', { prompt: '  ' }, 'prompt'],
    ['bad mode', { mode: 'max' }, 'mode'],
    ['duration 7', { duration: 7 }, 'duration'],
    ['duration "5s"', { duration: '5s' }, 'duration'],
    ['watermark_info not a bool', { watermark_info: { enabled: 'yes' } }, 'watermark_info.enabled'],
    ['custom watermark field', { watermark_info: { enabled: true, url: 'x' } }, 'watermark_info.url'],
    ['callback_url not http(s)', { callback_url: 'ftp://x.test/hook' }, 'callback_url'],
    ['unknown field', { seed: 1 }, 'seed'],
  ])('refuses %s (param %s)', (_name, extra, param) => {
    expect(refusal(() => validateKlEditingRequest(body(extra)))).toMatchObject({ status: 400, param });
  });

  it('accepts 2500 characters exactly, counted as characters', () => {
    expect(() => validateKlEditingRequest(body({ prompt: `<<<image_1>>>${'好'.repeat(2487)}` }))).not.toThrow();
  });

  it('checks duration against the source video', () => {
    expect(() => checkDurationFits('5', 5)).not.toThrow();
    expect(() => checkDurationFits('10', 7)).not.toThrow();
    expect(refusal(() => checkDurationFits('10', 5))).toMatchObject({ param: 'duration' });
    expect(refusal(() => checkDurationFits('5', 10))).toMatchObject({ param: 'duration' });
  });

  it('sends the upstream session and kl-v1-6, and never stores Base64', () => {
    const image = b64(png(400, 400, { padTo: 4000 }));
    const r = validateKlEditingRequest(
      body({ image_list: [{ image }], external_task_id: 'mine', callback_url: 'https://x.test/h' }),
    );
    const { body: wire, snapshot } = klEditingUpstreamBody(r, 'up-123');
    expect(wire).toMatchObject({
      model_name: 'kl-v1-6',
      session_id: 'up-123',
      duration: '5',
      mode: 'std',
      image_list: [{ image }],
    });
    expect(wire).not.toHaveProperty('external_task_id');
    expect(JSON.stringify(snapshot)).not.toContain(image);
  });
});
