import { MiB } from '../../common/media-probe';
import { bmp, dataUrl, gif, jpeg, mp4, png, webp } from '../../../../test/fixtures/media';
import { GatewayError } from '../../../platform/errors';
import { MODEL_NOT_FOUND, errorFields, gatewayErrorOf, invalidRequest } from '../../../../test/support/gateway-errors';
import { AxCreateRequest, validateAxCreateRequest } from './ax-create.rules';

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

type Body = Record<string, any>;
const DELETE = Symbol('delete');

const IMG = 'https://cdn.example.com/people/cat.png';
const VID = 'https://cdn.example.com/clips/dog.mp4';
const VOICE = 'https://cdn.example.com/voices/dog.wav';

const PNG_OK = dataUrl('image/png', png(240, 240));
/** The ten accepted `parameters.size` values, written out (not read from the rules table). */
const STATED_SIZES = [
  '1280*720',
  '720*1280',
  '960*960',
  '1088*832',
  '832*1088',
  '1920*1080',
  '1080*1920',
  '1440*1440',
  '1632*1248',
  '1248*1632',
];
const NATIVE = { code: 'InvalidParameter', message: 'please provide reference_video_urls or reference_urls' };

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v));
}

/** Sets (or with DELETE removes) values by path: `input.media[0].url`, `parameters.duration`. */
function make(base: Body, patch: Record<string, unknown> = {}): Body {
  const body = clone(base);
  for (const [path, value] of Object.entries(patch)) {
    const keys = path.replace(/\[(\d+)\]/g, '.$1').split('.');
    let at: any = body;
    for (const k of keys.slice(0, -1)) at = at[k] ??= {};
    const last = keys[keys.length - 1];
    if (value === DELETE) delete at[last];
    else at[last] = value;
  }
  return body;
}

const NEW_BASE: Body = {
  model: 'wx2.7-r2v',
  input: { prompt: 'Image 1 plays in a garden', media: [{ type: 'reference_image', url: IMG }] },
};
const OLD_BASE: Body = { model: 'wx2.6-r2v', input: { prompt: 'character1 dances', reference_urls: [IMG] } };
const FLASH_BASE: Body = { ...OLD_BASE, model: 'wx2.6-r2v-flash' };

const newBody = (patch?: Record<string, unknown>) => make(NEW_BASE, patch);
const oldBody = (patch?: Record<string, unknown>) => make(OLD_BASE, patch);
const flashBody = (patch?: Record<string, unknown>) => make(FLASH_BASE, patch);

function media(images: number, videos = 0, firstFrames = 0): Body[] {
  return [
    ...Array.from({ length: images }, (_, i) => ({
      type: 'reference_image',
      url: `https://cdn.example.com/i${i}.png`,
    })),
    ...Array.from({ length: videos }, (_, i) => ({
      type: 'reference_video',
      url: `https://cdn.example.com/v${i}.mp4`,
    })),
    ...Array.from({ length: firstFrames }, (_, i) => ({
      type: 'first_frame',
      url: `https://cdn.example.com/f${i}.jpg`,
    })),
  ];
}

function refs(images: number, videos = 0): string[] {
  return [
    ...Array.from({ length: images }, (_, i) => `https://cdn.example.com/i${i}.jpg`),
    ...Array.from({ length: videos }, (_, i) => `https://cdn.example.com/v${i}.mov`),
  ];
}

const errorOf = (body: unknown): GatewayError => gatewayErrorOf(() => validateAxCreateRequest(body));

function expectRejected(body: unknown, param: string | null): GatewayError {
  const err = errorOf(body);
  expect(errorFields(err)).toEqual(invalidRequest(param));
  return err;
}

function accept(body: unknown): AxCreateRequest {
  return validateAxCreateRequest(body);
}

// ---------------------------------------------------------------------------------------------
// body and model
// ---------------------------------------------------------------------------------------------

describe('validateAxCreateRequest: body and model', () => {
  it.each([
    ['an array', [1]],
    ['a string', 'text'],
    ['null', null],
  ])('rejects a body that is %s with param null', (_, body) => {
    expectRejected(body, null);
  });

  it.each([
    ['missing', DELETE],
    ['null', null],
    ['empty', ''],
    ['a number', 27],
  ])('rejects a model that is %s with param model', (_, model) => {
    expectRejected(newBody({ model }), 'model');
  });

  it.each(['wx9-r2v', 'kl-v1', 'vdq3'])('answers 404 model_not_found for %s (unknown or not ax)', (model) => {
    const err = errorOf(newBody({ model }));
    expect(errorFields(err)).toEqual(MODEL_NOT_FOUND);
  });

  it('keeps an echoed unknown model name short', () => {
    const err = errorOf(newBody({ model: PNG_OK }));
    expect([err.status, err.param]).toEqual([404, 'model']);
    expect(err.message.length).toBeLessThan(200);
  });

  it.each([
    ['wx2.7-r2v', newBody(), 'ax-r2v-new'],
    ['wx2.7-r2v-2026-06-12', newBody({ model: 'wx2.7-r2v-2026-06-12' }), 'ax-r2v-new'],
    ['wx2.6-r2v', oldBody(), 'ax-r2v-old'],
    ['wx2.6-r2v-flash', flashBody(), 'ax-r2v-old'],
  ])('selects the protocol of %s', (model, body, protocol) => {
    const out = accept(body);
    expect([out.model, out.protocol, out.upstreamBody.model]).toEqual([model, protocol, model]);
  });
});

// ---------------------------------------------------------------------------------------------
// new protocol
// ---------------------------------------------------------------------------------------------

describe('new protocol (wx2.7-r2v)', () => {
  describe('accepted at the boundary', () => {
    it.each<[string, Body]>([
      ['negative_prompt of 500 characters', newBody({ 'input.negative_prompt': 'n'.repeat(500) })],
      ['5 reference images', newBody({ 'input.media': media(5) })],
      ['5 reference videos', newBody({ 'input.media': media(0, 5) })],
      ['2 images + 3 videos + 1 first_frame', newBody({ 'input.media': media(2, 3, 1) })],
      ['1 reference video only', newBody({ 'input.media': media(0, 1) })],
      ['resolution 720P', newBody({ 'parameters.resolution': '720P' })],
      ['resolution 1080P', newBody({ 'parameters.resolution': '1080P' })],
      ...['16:9', '9:16', '1:1', '4:3', '3:4'].map((r): [string, Body] => [
        `ratio ${r}`,
        newBody({ 'parameters.ratio': r }),
      ]),
      ['duration 2', newBody({ 'parameters.duration': 2 })],
      ['duration 15 without video', newBody({ 'parameters.duration': 15 })],
      [
        'duration 15 with a first_frame and no video',
        newBody({ 'parameters.duration': 15, 'input.media': media(1, 0, 1) }),
      ],
      ['duration 10 with a video', newBody({ 'parameters.duration': 10, 'input.media': media(1, 1) })],
      ['seed 0', newBody({ 'parameters.seed': 0 })],
      ['seed 2147483647', newBody({ 'parameters.seed': 2147483647 })],
      ['prompt_extend false', newBody({ 'parameters.prompt_extend': false })],
      ['watermark true', newBody({ 'parameters.watermark': true })],
      ['a video URL with .MOV', newBody({ 'input.media': [{ type: 'reference_video', url: 'http://x.com/a.MOV' }] })],
      [
        'a video URL without extension',
        newBody({ 'input.media': [{ type: 'reference_video', url: 'https://x.com/stream?id=4' }] }),
      ],
      ...['jpg', 'jpeg', 'png', 'bmp', 'webp', 'JPG'].map((ext): [string, Body] => [
        `an image URL .${ext}`,
        newBody({ 'input.media[0].url': `https://x.com/a.${ext}?sig=a.gif` }),
      ]),
      ['an image URL without extension', newBody({ 'input.media[0].url': 'https://x.com/image' })],
      ['reference_voice .wav on an image', newBody({ 'input.media[0].reference_voice': VOICE })],
      [
        'reference_voice .mp3 on a video',
        newBody({ 'input.media': [{ type: 'reference_video', url: VID, reference_voice: 'https://x.com/v.MP3' }] }),
      ],
      ['reference_voice without extension', newBody({ 'input.media[0].reference_voice': 'https://x.com/voice?id=1' })],
      ['Base64 PNG 240x240', newBody({ 'input.media[0].url': PNG_OK })],
      ['Base64 PNG 8000x1000', newBody({ 'input.media[0].url': dataUrl('image/png', png(8000, 1000)) })],
      ['Base64 PNG 240x1920 (1:8)', newBody({ 'input.media[0].url': dataUrl('image/png', png(240, 1920)) })],
      ['Base64 PNG 1920x240 (8:1)', newBody({ 'input.media[0].url': dataUrl('image/png', png(1920, 240)) })],
      [
        'Base64 palette PNG without tRNS',
        newBody({ 'input.media[0].url': dataUrl('image/png', png(300, 300, { colourType: 3 })) }),
      ],
      ['Base64 JPEG', newBody({ 'input.media[0].url': dataUrl('image/jpeg', jpeg(1280, 720)) })],
      ['Base64 BMP', newBody({ 'input.media[0].url': dataUrl('image/bmp', bmp(640, 480)) })],
      ['Base64 WEBP', newBody({ 'input.media[0].url': dataUrl('image/webp', webp(640, 480)) })],
      ['Base64 first_frame', newBody({ 'input.media': [...media(1), { type: 'first_frame', url: PNG_OK }] })],
      [
        'null optional fields (treated as absent)',
        newBody({ 'input.negative_prompt': null, 'parameters.seed': null, parameters: null }),
      ],
    ])('%s', (_, body) => {
      expect(accept(body).protocol).toBe('ax-r2v-new');
    });
  });

  describe('rejected one past the boundary, naming the field', () => {
    it.each<[string, Body, string]>([
      // prompt
      ['missing prompt', newBody({ 'input.prompt': DELETE }), 'input.prompt'],
      ['empty prompt', newBody({ 'input.prompt': '' }), 'input.prompt'],
      ['blank prompt', newBody({ 'input.prompt': ' \n\t ' }), 'input.prompt'],
      ['numeric prompt', newBody({ 'input.prompt': 5 }), 'input.prompt'],
      [
        'negative_prompt of 501 characters',
        newBody({ 'input.negative_prompt': 'n'.repeat(501) }),
        'input.negative_prompt',
      ],
      ['numeric negative_prompt', newBody({ 'input.negative_prompt': 1 }), 'input.negative_prompt'],
      // input / media shape
      ['missing input', newBody({ input: DELETE }), 'input'],
      ['input as a string', newBody({ input: 'x' }), 'input'],
      ['missing media', newBody({ 'input.media': DELETE }), 'input.media'],
      ['media as an object', newBody({ 'input.media': { type: 'reference_image', url: IMG } }), 'input.media'],
      ['a media item that is a string', newBody({ 'input.media': [IMG] }), 'input.media[0]'],
      ['unknown media type', newBody({ 'input.media[0].type': 'reference_audio' }), 'input.media[0].type'],
      ['missing media type', newBody({ 'input.media[0].type': DELETE }), 'input.media[0].type'],
      [
        'missing media url',
        newBody({ 'input.media': [...media(1), { type: 'reference_image' }] }),
        'input.media[1].url',
      ],
      ['numeric media url', newBody({ 'input.media[0].url': 3 }), 'input.media[0].url'],
      ['unknown media item field', newBody({ 'input.media[0].weight': 1 }), 'input.media[0].weight'],
      // media counts
      ['empty media', newBody({ 'input.media': [] }), 'input.media'],
      ['6 reference images', newBody({ 'input.media': media(6) }), 'input.media'],
      ['3 images + 3 videos', newBody({ 'input.media': media(3, 3) }), 'input.media'],
      ['6 reference videos', newBody({ 'input.media': media(0, 6) }), 'input.media'],
      ['2 first_frames', newBody({ 'input.media': media(1, 0, 2) }), 'input.media'],
      ['only a first_frame', newBody({ 'input.media': media(0, 0, 1) }), 'input.media'],
      // media URLs
      ['image URL .gif', newBody({ 'input.media[0].url': 'https://x.com/a.gif' }), 'input.media[0].url'],
      ['image URL .mp4', newBody({ 'input.media[0].url': 'https://x.com/a.mp4' }), 'input.media[0].url'],
      ['image URL over ftp', newBody({ 'input.media[0].url': 'ftp://x.com/a.png' }), 'input.media[0].url'],
      [
        'image as bare Base64',
        newBody({ 'input.media[0].url': png(240, 240).toString('base64') }),
        'input.media[0].url',
      ],
      [
        'first_frame URL .tiff',
        newBody({ 'input.media': [...media(1), { type: 'first_frame', url: 'https://x.com/f.tiff' }] }),
        'input.media[1].url',
      ],
      [
        'video URL .png',
        newBody({ 'input.media': [...media(1), { type: 'reference_video', url: 'https://x.com/a.png' }] }),
        'input.media[1].url',
      ],
      [
        'video URL .avi',
        newBody({ 'input.media': [{ type: 'reference_video', url: 'https://x.com/a.avi' }] }),
        'input.media[0].url',
      ],
      [
        'video as data URL',
        newBody({ 'input.media': [{ type: 'reference_video', url: dataUrl('video/mp4', mp4(5)) }] }),
        'input.media[0].url',
      ],
      [
        'video URL not http(s)',
        newBody({ 'input.media': [{ type: 'reference_video', url: 'rtmp://x.com/a.mp4' }] }),
        'input.media[0].url',
      ],
      // reference_voice
      [
        'reference_voice .ogg',
        newBody({ 'input.media[0].reference_voice': 'https://x.com/v.ogg' }),
        'input.media[0].reference_voice',
      ],
      [
        'reference_voice over ftp',
        newBody({ 'input.media[0].reference_voice': 'ftp://x.com/v.wav' }),
        'input.media[0].reference_voice',
      ],
      [
        'reference_voice as data URL',
        newBody({ 'input.media[0].reference_voice': 'data:audio/wav;base64,AAAA' }),
        'input.media[0].reference_voice',
      ],
      ['reference_voice numeric', newBody({ 'input.media[0].reference_voice': 1 }), 'input.media[0].reference_voice'],
      [
        'reference_voice on a first_frame',
        newBody({ 'input.media': [...media(1), { type: 'first_frame', url: IMG, reference_voice: VOICE }] }),
        'input.media[1].reference_voice',
      ],
      // Base64 images
      [
        'Base64 PNG 239 px wide',
        newBody({ 'input.media[0].url': dataUrl('image/png', png(239, 240)) }),
        'input.media[0].url',
      ],
      [
        'Base64 PNG 239 px high',
        newBody({ 'input.media[0].url': dataUrl('image/png', png(240, 239)) }),
        'input.media[0].url',
      ],
      [
        'Base64 PNG 8001 px wide',
        newBody({ 'input.media[0].url': dataUrl('image/png', png(8001, 1001)) }),
        'input.media[0].url',
      ],
      ['Base64 PNG 1:9', newBody({ 'input.media[0].url': dataUrl('image/png', png(240, 2160)) }), 'input.media[0].url'],
      ['Base64 PNG 9:1', newBody({ 'input.media[0].url': dataUrl('image/png', png(2160, 240)) }), 'input.media[0].url'],
      [
        'Base64 PNG with alpha (RGBA)',
        newBody({ 'input.media[0].url': dataUrl('image/png', png(300, 300, { colourType: 6 })) }),
        'input.media[0].url',
      ],
      [
        'Base64 PNG with alpha (grey)',
        newBody({ 'input.media[0].url': dataUrl('image/png', png(300, 300, { colourType: 4 })) }),
        'input.media[0].url',
      ],
      [
        'Base64 PNG with tRNS',
        newBody({ 'input.media[0].url': dataUrl('image/png', png(300, 300, { trns: true })) }),
        'input.media[0].url',
      ],
      ['Base64 GIF', newBody({ 'input.media[0].url': dataUrl('image/gif', gif(300, 300)) }), 'input.media[0].url'],
      [
        'Base64 MIME disagreeing with content',
        newBody({ 'input.media[0].url': dataUrl('image/webp', png(300, 300)) }),
        'input.media[0].url',
      ],
      ['malformed Base64', newBody({ 'input.media[0].url': 'data:image/png;base64,iVBOR%%%' }), 'input.media[0].url'],
      ['data URL without base64', newBody({ 'input.media[0].url': 'data:image/png,abc' }), 'input.media[0].url'],
      [
        'Base64 image over 20 MiB',
        newBody({ 'input.media[0].url': dataUrl('image/png', png(300, 300, { padTo: 20 * MiB + 1 })) }),
        'input.media[0].url',
      ],
      [
        'Base64 first_frame 239 px',
        newBody({ 'input.media': [...media(2), { type: 'first_frame', url: dataUrl('image/png', png(239, 239)) }] }),
        'input.media[2].url',
      ],
      // parameters
      ['resolution 720p (case)', newBody({ 'parameters.resolution': '720p' }), 'parameters.resolution'],
      ['resolution 4K', newBody({ 'parameters.resolution': '4K' }), 'parameters.resolution'],
      ['ratio 21:9', newBody({ 'parameters.ratio': '21:9' }), 'parameters.ratio'],
      ['ratio 16/9', newBody({ 'parameters.ratio': '16/9' }), 'parameters.ratio'],
      ['duration 1', newBody({ 'parameters.duration': 1 }), 'parameters.duration'],
      ['duration 16 without video', newBody({ 'parameters.duration': 16 }), 'parameters.duration'],
      [
        'duration 11 with a video',
        newBody({ 'parameters.duration': 11, 'input.media': media(1, 1) }),
        'parameters.duration',
      ],
      [
        'duration 15 with a video',
        newBody({ 'parameters.duration': 15, 'input.media': media(0, 1) }),
        'parameters.duration',
      ],
      ['duration "5"', newBody({ 'parameters.duration': '5' }), 'parameters.duration'],
      ['duration 5.5', newBody({ 'parameters.duration': 5.5 }), 'parameters.duration'],
      ['prompt_extend "true"', newBody({ 'parameters.prompt_extend': 'true' }), 'parameters.prompt_extend'],
      ['watermark 1', newBody({ 'parameters.watermark': 1 }), 'parameters.watermark'],
      ['seed -1', newBody({ 'parameters.seed': -1 }), 'parameters.seed'],
      ['seed 2147483648', newBody({ 'parameters.seed': 2147483648 }), 'parameters.seed'],
      ['seed 1.5', newBody({ 'parameters.seed': 1.5 }), 'parameters.seed'],
      ['seed "7"', newBody({ 'parameters.seed': '7' }), 'parameters.seed'],
      ['parameters as an array', newBody({ parameters: [1] }), 'parameters'],
      // unknown and old-protocol fields
      ['unknown top-level field', newBody({ stream: true }), 'stream'],
      ['unknown input field', newBody({ 'input.reference_images': [IMG] }), 'input.reference_images'],
      ['unknown parameters field', newBody({ 'parameters.fps': 24 }), 'parameters.fps'],
      ['old-protocol input.reference_urls', newBody({ 'input.reference_urls': [IMG] }), 'input.reference_urls'],
      [
        'old-protocol input.reference_video_urls',
        newBody({ 'input.reference_video_urls': [IMG] }),
        'input.reference_video_urls',
      ],
      ['old-protocol parameters.size', newBody({ 'parameters.size': '1920*1080' }), 'parameters.size'],
      ['old-protocol parameters.shot_type', newBody({ 'parameters.shot_type': 'multi' }), 'parameters.shot_type'],
      ['old-protocol parameters.audio', newBody({ 'parameters.audio': true }), 'parameters.audio'],
    ])('%s -> %s', (_, body, param) => {
      expectRejected(body, param as string);
    });
  });

  it('names the old-protocol field and says why', () => {
    expect(errorOf(newBody({ 'parameters.size': '1920*1080' })).message).toMatch(
      /parameters\.size belongs to the old protocol/,
    );
  });

  it.each<[string, Body, string]>([
    [
      'a 6th reference',
      newBody({ 'input.media': media(4, 2) }),
      '1 to 5 reference_image/reference_video items in total (got 6)',
    ],
    ['a 2nd first_frame', newBody({ 'input.media': media(1, 0, 2) }), 'at most 1 first_frame'],
    [
      'a video as data URL',
      newBody({ 'input.media': [{ type: 'reference_video', url: dataUrl('video/mp4', mp4(5)) }] }),
      'must be an http(s) URL, not inline data',
    ],
    [
      'a voice as data URL',
      newBody({ 'input.media[0].reference_voice': 'data:audio/wav;base64,AAAA' }),
      'must be an http(s) URL, not inline data',
    ],
    [
      'a voice on a first_frame',
      newBody({ 'input.media': [...media(1), { type: 'first_frame', url: IMG, reference_voice: VOICE }] }),
      'only accepted on reference_image and reference_video',
    ],
  ])('says why it rejects %s', (_, body, message) => {
    expect(errorOf(body).message).toContain(message);
  });

  it.each<[string, Body, string]>([
    ['duration "5"', newBody({ 'parameters.duration': '5' }), 'parameters.duration must be an integer number'],
    ['duration 16', newBody({ 'parameters.duration': 16 }), 'parameters.duration must not be greater than 15'],
    ['prompt 5', newBody({ 'input.prompt': 5 }), 'input.prompt must be a string'],
    [
      'ratio 21:9',
      newBody({ 'parameters.ratio': '21:9' }),
      'parameters.ratio must be one of the following values: 16:9, 9:16, 1:1, 4:3, 3:4',
    ],
    ['watermark "true"', newBody({ 'parameters.watermark': 'true' }), 'parameters.watermark must be a boolean value'],
  ])('reports the type before the range for %s', (_, body, message) => {
    expect(errorOf(body).message).toBe(message);
  });

  it('explains the video-dependent duration limit', () => {
    expect(errorOf(newBody({ 'parameters.duration': 11, 'input.media': media(1, 1) })).message).toContain(
      '2 to 10 seconds when the references include a video',
    );
  });

  describe('prompt length (decision: accept and truncate to 5000 characters)', () => {
    it('forwards a 5000-character prompt unchanged', () => {
      const prompt = 'p'.repeat(5000);
      const out = accept(newBody({ 'input.prompt': prompt }));
      expect([out.upstreamBody.input.prompt, out.promptTruncated]).toEqual([prompt, false]);
    });

    it('truncates a 5001-character prompt to its first 5000 characters and flags it', () => {
      const prompt = 'a'.repeat(4999) + 'bc';
      const out = accept(newBody({ 'input.prompt': prompt }));
      expect([out.upstreamBody.input.prompt, out.promptTruncated]).toEqual(['a'.repeat(4999) + 'b', true]);
      expect(out.snapshot).toMatchObject({ input: { prompt: 'a'.repeat(4999) + 'b' } });
    });

    it('counts characters, not UTF-16 units, and never splits a surrogate pair', () => {
      const emoji = '😀'.repeat(5000);
      expect(accept(newBody({ 'input.prompt': emoji })).promptTruncated).toBe(false);
      const out = accept(newBody({ 'input.prompt': emoji + '😀' }));
      expect([out.upstreamBody.input.prompt, out.promptTruncated]).toEqual([emoji, true]);
    });
  });

  it('applies the defaults and sends no seed when none is given', () => {
    const out = accept(newBody());
    expect(out.upstreamBody).toEqual({
      model: 'wx2.7-r2v',
      input: { prompt: 'Image 1 plays in a garden', media: [{ type: 'reference_image', url: IMG }] },
      parameters: { resolution: '1080P', ratio: '16:9', duration: 5, prompt_extend: true, watermark: false },
    });
    expect(out.usedDeprecatedField).toBe(false);
  });

  it('keeps given values, drops nulls and builds the billing facts', () => {
    const body = newBody({
      'input.negative_prompt': 'blurry',
      'input.media': [
        { type: 'reference_image', url: IMG, reference_voice: VOICE },
        { type: 'reference_video', url: VID, reference_voice: null },
        { type: 'reference_image', url: PNG_OK },
        { type: 'first_frame', url: IMG },
      ],
      parameters: { resolution: '720P', ratio: '1:1', duration: 10, prompt_extend: false, watermark: true, seed: 7 },
    });
    const out = accept(body);
    expect(out.upstreamBody.input).toEqual({
      prompt: 'Image 1 plays in a garden',
      negative_prompt: 'blurry',
      media: [
        { type: 'reference_image', url: IMG, reference_voice: VOICE },
        { type: 'reference_video', url: VID },
        { type: 'reference_image', url: PNG_OK },
        { type: 'first_frame', url: IMG },
      ],
    });
    expect(out.upstreamBody.parameters).toEqual({
      resolution: '720P',
      ratio: '1:1',
      duration: 10,
      prompt_extend: false,
      watermark: true,
      seed: 7,
    });
    // The first_frame is not a reference material.
    expect(out.billing).toEqual({
      kind: 'ax-r2v',
      resolution: '720P',
      durationSeconds: 10,
      referenceImages: 2,
      referenceVideos: 1,
      audio: null,
    });
  });

  it('never puts Base64 in the snapshot but forwards it upstream', () => {
    const bytes = png(240, 240);
    const out = accept(
      newBody({
        'input.media': [
          { type: 'reference_image', url: PNG_OK },
          { type: 'first_frame', url: dataUrl('image/jpeg', jpeg(640, 480)) },
        ],
      }),
    );
    expect((out.upstreamBody.input.media as Body[])[0].url).toBe(PNG_OK);
    expect(out.snapshot).toEqual({
      ...out.upstreamBody,
      input: {
        ...out.upstreamBody.input,
        media: [
          { type: 'reference_image', url: `[base64 image/png ${bytes.length} bytes]` },
          { type: 'first_frame', url: `[base64 image/jpeg ${jpeg(640, 480).length} bytes]` },
        ],
      },
    });
    expect(JSON.stringify(out.snapshot)).not.toContain(';base64,');
  });

  it('does not mutate the caller body', () => {
    const body = newBody({ 'input.prompt': 'x'.repeat(6000) });
    const before = clone(body);
    accept(body);
    expect(body).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------
// old protocol
// ---------------------------------------------------------------------------------------------

describe('old protocol (wx2.6-r2v, wx2.6-r2v-flash)', () => {
  describe('accepted at the boundary', () => {
    it.each<[string, Body]>([
      ['prompt of 1500 characters', oldBody({ 'input.prompt': 'p'.repeat(1500) })],
      ['prompt of 1500 emoji', oldBody({ 'input.prompt': '😀'.repeat(1500) })],
      ['negative_prompt of 500 characters', oldBody({ 'input.negative_prompt': 'n'.repeat(500) })],
      ['5 images', oldBody({ 'input.reference_urls': refs(5) })],
      ['3 videos', oldBody({ 'input.reference_urls': refs(0, 3) })],
      ['2 images + 3 videos', oldBody({ 'input.reference_urls': refs(2, 3) })],
      ['1 video only', oldBody({ 'input.reference_urls': refs(0, 1) })],
      ['image URL without extension', oldBody({ 'input.reference_urls': ['https://x.com/photo'] })],
      ['Base64 PNG 240x240', oldBody({ 'input.reference_urls': [PNG_OK] })],
      [
        'Base64 PNG 240x2160 (no ratio rule in the old protocol)',
        oldBody({ 'input.reference_urls': [dataUrl('image/png', png(240, 2160))] }),
      ],
      ['Base64 video of 5 s', oldBody({ 'input.reference_urls': [dataUrl('video/mp4', mp4(5))] })],
      ...STATED_SIZES.map((size): [string, Body] => [`size ${size}`, oldBody({ 'parameters.size': size })]),
      ['duration 2', oldBody({ 'parameters.duration': 2 })],
      ['duration 10', oldBody({ 'parameters.duration': 10 })],
      ['shot_type single', oldBody({ 'parameters.shot_type': 'single' })],
      ['shot_type multi', oldBody({ 'parameters.shot_type': 'multi' })],
      ['watermark true', oldBody({ 'parameters.watermark': true })],
      ['seed 0', oldBody({ 'parameters.seed': 0 })],
      ['seed 2147483647', oldBody({ 'parameters.seed': 2147483647 })],
      ['flash audio false', flashBody({ 'parameters.audio': false })],
      ['flash audio true', flashBody({ 'parameters.audio': true })],
      ['non-flash audio null (absent)', oldBody({ 'parameters.audio': null })],
    ])('%s', (_, body) => {
      expect(accept(body).protocol).toBe('ax-r2v-old');
    });
  });

  describe('rejected one past the boundary, naming the field', () => {
    it.each<[string, Body, string]>([
      ['prompt of 1501 characters', oldBody({ 'input.prompt': 'p'.repeat(1501) }), 'input.prompt'],
      ['missing prompt', oldBody({ 'input.prompt': DELETE }), 'input.prompt'],
      ['blank prompt', oldBody({ 'input.prompt': '  ' }), 'input.prompt'],
      [
        'negative_prompt of 501 characters',
        oldBody({ 'input.negative_prompt': 'n'.repeat(501) }),
        'input.negative_prompt',
      ],
      // (a missing input is the native missing-reference rejection, below)
      // counts
      ['6 images', oldBody({ 'input.reference_urls': refs(6) }), 'input.reference_urls'],
      ['4 videos', oldBody({ 'input.reference_urls': refs(0, 4) }), 'input.reference_urls'],
      [
        '4 upper-case .MP4 videos',
        oldBody({ 'input.reference_urls': refs(0, 4).map((u) => u.replace('.mov', '.MP4')) }),
        'input.reference_urls',
      ],
      [
        '4 data:video references',
        oldBody({ 'input.reference_urls': Array(4).fill(dataUrl('video/mp4', mp4(5))) }),
        'input.reference_urls',
      ],
      ['3 images + 3 videos', oldBody({ 'input.reference_urls': refs(3, 3) }), 'input.reference_urls'],
      ['an empty list', oldBody({ 'input.reference_urls': [] }), 'input.reference_urls'],
      ['a string instead of a list', oldBody({ 'input.reference_urls': IMG }), 'input.reference_urls'],
      ['a number in the list', oldBody({ 'input.reference_urls': [IMG, 3] }), 'input.reference_urls[1]'],
      ['an empty string in the list', oldBody({ 'input.reference_urls': [''] }), 'input.reference_urls[0]'],
      // each reference
      ['image URL .gif', oldBody({ 'input.reference_urls': [IMG, 'https://x.com/a.gif'] }), 'input.reference_urls[1]'],
      [
        'URL .avi (counts as an image, not an image format)',
        oldBody({ 'input.reference_urls': ['https://x.com/a.avi'] }),
        'input.reference_urls[0]',
      ],
      ['a non-http URL', oldBody({ 'input.reference_urls': ['s3://bucket/a.png'] }), 'input.reference_urls[0]'],
      ['text that is not a URL', oldBody({ 'input.reference_urls': ['a cat'] }), 'input.reference_urls[0]'],
      [
        'Base64 PNG 239 px',
        oldBody({ 'input.reference_urls': [IMG, dataUrl('image/png', png(239, 400))] }),
        'input.reference_urls[1]',
      ],
      [
        'Base64 PNG with alpha',
        oldBody({ 'input.reference_urls': [dataUrl('image/png', png(300, 300, { colourType: 6 }))] }),
        'input.reference_urls[0]',
      ],
      [
        'Base64 JPEG labelled PNG',
        oldBody({ 'input.reference_urls': [dataUrl('image/png', jpeg(300, 300))] }),
        'input.reference_urls[0]',
      ],
      [
        'malformed Base64',
        oldBody({ 'input.reference_urls': ['data:image/jpeg;base64,@@@@'] }),
        'input.reference_urls[0]',
      ],
      [
        'Base64 video of 31 s',
        oldBody({ 'input.reference_urls': [dataUrl('video/mp4', mp4(31))] }),
        'input.reference_urls[0]',
      ],
      [
        'Base64 video/webm',
        oldBody({ 'input.reference_urls': [dataUrl('video/webm', mp4(5))] }),
        'input.reference_urls[0]',
      ],
      ['Base64 audio', oldBody({ 'input.reference_urls': ['data:audio/mpeg;base64,AAAA'] }), 'input.reference_urls[0]'],
      // size
      ...['1280x720', '16:9', '720P', '1080P', '1920*1080 ', '1920 * 1080', '1921*1080', '1080*1080', ''].map(
        (size): [string, Body, string] => [
          `size ${JSON.stringify(size)}`,
          oldBody({ 'parameters.size': size }),
          'parameters.size',
        ],
      ),
      ['size as a number', oldBody({ 'parameters.size': 1920 }), 'parameters.size'],
      // other parameters
      ['duration 1', oldBody({ 'parameters.duration': 1 }), 'parameters.duration'],
      ['duration 11', oldBody({ 'parameters.duration': 11 }), 'parameters.duration'],
      ['duration "5"', oldBody({ 'parameters.duration': '5' }), 'parameters.duration'],
      ['shot_type double', oldBody({ 'parameters.shot_type': 'double' }), 'parameters.shot_type'],
      ['watermark "false"', oldBody({ 'parameters.watermark': 'false' }), 'parameters.watermark'],
      ['seed -1', oldBody({ 'parameters.seed': -1 }), 'parameters.seed'],
      ['seed 2147483648', oldBody({ 'parameters.seed': 2147483648 }), 'parameters.seed'],
      ['audio on wx2.6-r2v (true)', oldBody({ 'parameters.audio': true }), 'parameters.audio'],
      ['audio on wx2.6-r2v (false)', oldBody({ 'parameters.audio': false }), 'parameters.audio'],
      ['flash audio "false"', flashBody({ 'parameters.audio': 'false' }), 'parameters.audio'],
      ['flash audio 0', flashBody({ 'parameters.audio': 0 }), 'parameters.audio'],
      // unknown and new-protocol fields
      ['unknown top-level field', oldBody({ extra: 1 }), 'extra'],
      ['unknown input field that is no reference', oldBody({ 'input.style': 'anime' }), 'input.style'],
      ['unknown parameters field', oldBody({ 'parameters.fps': 30 }), 'parameters.fps'],
      ['new-protocol input.media', oldBody({ 'input.media': media(1) }), 'input.media'],
      ['new-protocol parameters.resolution', oldBody({ 'parameters.resolution': '720P' }), 'parameters.resolution'],
      ['new-protocol parameters.ratio', oldBody({ 'parameters.ratio': '16:9' }), 'parameters.ratio'],
      [
        'new-protocol parameters.prompt_extend',
        oldBody({ 'parameters.prompt_extend': true }),
        'parameters.prompt_extend',
      ],
      [
        'both reference_urls and reference_video_urls',
        oldBody({ 'input.reference_video_urls': [IMG] }),
        'input.reference_video_urls',
      ],
    ])('%s -> %s', (_, body, param) => {
      expectRejected(body, param as string);
    });
  });

  it.each<[string, Body]>([
    ['neither reference field', oldBody({ 'input.reference_urls': DELETE })],
    ['reference_urls null', oldBody({ 'input.reference_urls': null })],
    ['input.ref_urls instead', oldBody({ 'input.reference_urls': DELETE, 'input.ref_urls': [IMG] })],
    ['input.reference_images instead', oldBody({ 'input.reference_urls': DELETE, 'input.reference_images': [IMG] })],
    ['input.video_urls beside reference_urls', oldBody({ 'input.video_urls': [VID] })],
    ['input.ref_urls beside reference_urls', oldBody({ 'input.ref_urls': [IMG] })],
    ['input.referenceUrls beside reference_urls', oldBody({ 'input.referenceUrls': [IMG] })],
    ['input.imageList beside reference_urls', oldBody({ 'input.imageList': [IMG] })],
    [
      'input.image_url beside the deprecated field',
      oldBody({ 'input.reference_urls': DELETE, 'input.reference_video_urls': [IMG], 'input.image_url': IMG }),
    ],
    ['neither, and no prompt either', oldBody({ input: {} })],
    ['input missing', oldBody({ input: DELETE })],
    ['input null', oldBody({ input: null })],
    ['reference_urls empty', oldBody({ 'input.reference_urls': [] })],
    ['reference_video_urls empty', oldBody({ 'input.reference_urls': DELETE, 'input.reference_video_urls': [] })],
  ])('keeps the native rejection for %s', (_, body) => {
    const err = expectRejected(body, 'input.reference_urls');
    expect(err.message).toBe(NATIVE.message);
    expect(err.options.native).toEqual(NATIVE);
  });

  it.each<[string, string[], string]>([
    ['6 images', refs(6), 'at most 5 reference images (got 6)'],
    ['4 videos', refs(0, 4), 'at most 3 reference videos (got 4)'],
    ['3 images + 3 videos', refs(3, 3), '1 to 5 references, images and videos together (got 6)'],
  ])('says which count limit %s breaks', (_, list, message) => {
    expect(errorOf(oldBody({ 'input.reference_urls': list })).message).toContain(message);
  });

  it('does not use the native rejection for other errors', () => {
    expect(errorOf(oldBody({ 'input.reference_urls': refs(6) })).options.native).toBeUndefined();
  });

  it('counts by path only: a .mp4 in the query is an image, data:video is a video', () => {
    const out = accept(
      oldBody({
        'input.reference_urls': [
          'https://x.com/a.png?name=b.mp4',
          'https://x.com/b.Mov',
          dataUrl('video/quicktime', mp4(3, 'qt  ')),
        ],
      }),
    );
    expect([out.billing.referenceImages, out.billing.referenceVideos]).toEqual([1, 2]);
  });

  it('applies the defaults (wx2.6-r2v: no audio field)', () => {
    const out = accept(oldBody());
    expect(out.upstreamBody).toEqual({
      model: 'wx2.6-r2v',
      input: { prompt: 'character1 dances', reference_urls: [IMG] },
      parameters: { size: '1920*1080', duration: 5, shot_type: 'single', watermark: false },
    });
    expect(out.billing).toEqual({
      kind: 'ax-r2v',
      resolution: '1080P',
      durationSeconds: 5,
      referenceImages: 1,
      referenceVideos: 0,
      audio: null,
    });
  });

  it('applies audio true by default on flash and bills it', () => {
    const out = accept(flashBody());
    expect(out.upstreamBody.parameters).toEqual({
      size: '1920*1080',
      duration: 5,
      shot_type: 'single',
      audio: true,
      watermark: false,
    });
    expect(out.billing.audio).toBe(true);
  });

  it('keeps an explicit silent flash request', () => {
    const out = accept(flashBody({ 'parameters.audio': false }));
    expect([out.upstreamBody.parameters.audio, out.billing.audio]).toEqual([false, false]);
  });

  it.each([
    ['1280*720', '720P'],
    ['720*1280', '720P'],
    ['960*960', '720P'],
    ['1088*832', '720P'],
    ['832*1088', '720P'],
    ['1920*1080', '1080P'],
    ['1080*1920', '1080P'],
    ['1440*1440', '1080P'],
    ['1632*1248', '1080P'],
    ['1248*1632', '1080P'],
  ])('bills size %s at tier %s', (size, tier) => {
    const out = accept(
      oldBody({ 'parameters.size': size, 'parameters.duration': 7, 'input.reference_urls': refs(2, 1) }),
    );
    expect(out.upstreamBody.parameters.size).toBe(size);
    expect(out.billing).toEqual({
      kind: 'ax-r2v',
      resolution: tier,
      durationSeconds: 7,
      referenceImages: 2,
      referenceVideos: 1,
      audio: null,
    });
  });

  it('keeps given values', () => {
    const given = {
      size: '832*1088',
      duration: 10,
      shot_type: 'multi',
      audio: false,
      watermark: true,
      seed: 2147483647,
    };
    const out = accept(flashBody({ 'input.negative_prompt': 'dark', parameters: given }));
    expect(out.upstreamBody).toEqual({
      model: 'wx2.6-r2v-flash',
      input: { prompt: 'character1 dances', negative_prompt: 'dark', reference_urls: [IMG] },
      parameters: { ...given },
    });
  });

  describe('deprecated reference_video_urls', () => {
    const body = () => oldBody({ 'input.reference_urls': DELETE, 'input.reference_video_urls': [IMG, VID] });

    it('is forwarded as reference_urls and flagged', () => {
      const out = accept(body());
      expect(out.usedDeprecatedField).toBe(true);
      expect(out.upstreamBody.input).toEqual({ prompt: 'character1 dances', reference_urls: [IMG, VID] });
      expect(out.snapshot.input).toEqual({ prompt: 'character1 dances', reference_urls: [IMG, VID] });
      expect([out.billing.referenceImages, out.billing.referenceVideos]).toEqual([1, 1]);
    });

    it('is not flagged when reference_urls is used', () => {
      expect(accept(oldBody()).usedDeprecatedField).toBe(false);
    });

    it('names the deprecated field in its own errors', () => {
      expectRejected(
        oldBody({ 'input.reference_urls': DELETE, 'input.reference_video_urls': refs(6) }),
        'input.reference_video_urls',
      );
      expectRejected(
        oldBody({ 'input.reference_urls': DELETE, 'input.reference_video_urls': [IMG, 'https://x.com/a.gif'] }),
        'input.reference_video_urls[1]',
      );
    });
  });

  it('never puts Base64 in the snapshot', () => {
    const video = mp4(5);
    const out = accept(
      flashBody({
        'input.reference_urls': [PNG_OK, dataUrl('image/bmp', bmp(300, 300)), dataUrl('video/mp4', video), IMG],
      }),
    );
    expect(out.snapshot.input).toEqual({
      prompt: 'character1 dances',
      reference_urls: [
        `[base64 image/png ${png(240, 240).length} bytes]`,
        `[base64 image/bmp ${bmp(300, 300).length} bytes]`,
        `[base64 video/mp4 ${video.length} bytes]`,
        IMG,
      ],
    });
    expect(JSON.stringify(out.snapshot)).not.toMatch(/base64,/);
    expect((out.upstreamBody.input.reference_urls as string[])[0]).toBe(PNG_OK);
    expect(out.snapshot.parameters).toEqual(out.upstreamBody.parameters);
  });
});
