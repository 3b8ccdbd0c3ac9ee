/**
 * vd request validation beyond the per-model matrix: mode detection, model errors, media
 * references, Base64 redaction, seeds, callback URL, and the shape of what is handed on.
 */
import { GatewayError } from '../../../platform/errors';
import { MODEL_NOT_FOUND, errorFields, gatewayErrorOf, invalidRequest } from '../../../../test/support/gateway-errors';
import { dataUrl, mp4, pngHeader, pngHeaderDataUrl } from '../../../../test/fixtures/media';
import { VdCreateRequest, validateVdCreateRequest } from './vd-create.rules';

const IMG = 'https://cdn.example.com/ref/cat.png';

const png = pngHeaderDataUrl;

const errorOf = (body: unknown): GatewayError => gatewayErrorOf(() => validateVdCreateRequest(body));

const rejects = (body: unknown, param: string | null) => {
  const err = errorOf(body);
  expect(errorFields(err)).toEqual(invalidRequest(param));
  return err;
};

const nonSubject = (patch: Record<string, unknown> = {}) => ({
  model: 'vdq2-pro',
  prompt: 'a cat',
  images: [IMG],
  ...patch,
});
const subject = (patch: Record<string, unknown> = {}) => ({
  model: 'vdq3',
  prompt: '@cat runs',
  subjects: [{ name: 'cat', images: [IMG] }],
  ...patch,
});

describe('mode detection', () => {
  it('chooses the mode from the body', () => {
    expect(validateVdCreateRequest(subject()).mode).toBe('subject');
    expect(validateVdCreateRequest(nonSubject()).mode).toBe('non-subject');
  });

  it('rejects both modes at once, naming the non-subject field', () => {
    rejects(subject({ images: [IMG] }), 'images');
    rejects(subject({ videos: ['https://x.example/a.mp4'] }), 'videos');
  });

  it('rejects neither mode, naming the field of a mode the model offers', () => {
    rejects({ model: 'vdq3', prompt: 'p' }, 'subjects');
    rejects({ model: 'vdq3-mix', prompt: 'p' }, 'images');
  });

  it('treats a body with only videos as non-subject mode, which needs images', () => {
    rejects({ model: 'vdq2-pro', prompt: 'p', videos: ['https://x.example/a.mp4'] }, 'images');
  });

  it('refuses subject mode for vdq3-mix, naming model', () => {
    expect(rejects(subject({ model: 'vdq3-mix' }), 'model').message).toContain('non-subject');
  });
});

describe('model', () => {
  it('is required and a string', () => {
    rejects({ prompt: 'p', images: [IMG] }, 'model');
    rejects(nonSubject({ model: 3 }), 'model');
  });

  it('is 404 model_not_found when unknown or of another family', () => {
    for (const model of ['vdq9', 'kl-v1', 'wx2.6-r2v', 'toString']) {
      const err = errorOf(nonSubject({ model }));
      expect(errorFields(err)).toEqual(MODEL_NOT_FOUND);
    }
  });
});

describe('body shape', () => {
  it('must be a JSON object', () => {
    for (const body of [null, [], 'x', 5]) rejects(body, null);
  });

  it('rejects unknown fields, also inside subjects, and mode-foreign fields', () => {
    rejects(subject({ extra: 1 }), 'extra');
    rejects(subject({ subjects: [{ name: 'cat', images: [IMG], colour: 'red' }] }), 'subjects[0].colour');
    rejects(subject({ bgm: true }), 'bgm');
    rejects(nonSubject({ auto_subjects: true }), 'auto_subjects');
    rejects(nonSubject({ audio_type: 'all' }), 'audio_type');
  });

  it('is strict about types', () => {
    rejects(nonSubject({ duration: '5' }), 'duration');
    rejects(nonSubject({ seed: '1' }), 'seed');
    rejects(nonSubject({ watermark: 'true' }), 'watermark');
    rejects(nonSubject({ off_peak: 1 }), 'off_peak');
    rejects(nonSubject({ images: IMG }), 'images');
    rejects(nonSubject({ images: [IMG, 7] }), 'images[1]');
    rejects(subject({ subjects: ['cat'] }), 'subjects[0]');
    rejects(subject({ subjects: [{ name: 'cat', images: [IMG, null] }] }), 'subjects[0].images[1]');
    rejects(subject({ subjects: [{ images: [IMG] }] }), 'subjects[0].name');
    rejects(subject({ prompt: 5 }), 'prompt');
    rejects(subject({ auto_subjects: 'no' }), 'auto_subjects');
  });

  it('checks movement_amplitude values', () => {
    for (const value of ['auto', 'small', 'medium', 'large'])
      expect(validateVdCreateRequest(nonSubject({ movement_amplitude: value })).echo.movement_amplitude).toBe(value);
    rejects(nonSubject({ movement_amplitude: 'huge' }), 'movement_amplitude');
  });

  it('rejects duplicate subject names, which the prompt could not tell apart', () => {
    rejects(
      subject({
        subjects: [
          { name: 'cat', images: [IMG] },
          { name: 'cat', images: [IMG] },
        ],
      }),
      'subjects[1].name',
    );
  });
});

describe('media references', () => {
  it('accepts the allowed formats by URL extension, and URLs without one', () => {
    const images = [
      'https://x.example/a.png',
      'https://x.example/a.JPEG',
      'https://x.example/a.jpg?x=1',
      'https://x.example/a.webp',
      'https://x.example/img/123',
    ];
    expect(validateVdCreateRequest(nonSubject({ images: images.slice(0, 4) })).echo.images).toHaveLength(4);
    expect(validateVdCreateRequest(nonSubject({ images: [images[4]] })).echo.images).toEqual([images[4]]);
  });

  it('rejects other extensions and non-http URLs, naming the element', () => {
    rejects(nonSubject({ images: [IMG, 'https://x.example/a.gif'] }), 'images[1]');
    rejects(nonSubject({ images: ['ftp://x.example/a.png'] }), 'images[0]');
    rejects(nonSubject({ videos: ['https://x.example/a.mkv'] }), 'videos[0]');
  });

  it('requires the content-type prefix on Base64 images', () => {
    const bare = pngHeader(200, 200).toString('base64');
    expect(rejects(nonSubject({ images: [bare] }), 'images[0]').message).toContain('content-type prefix');
    expect(validateVdCreateRequest(nonSubject({ images: [png(200, 200)] })).mode).toBe('non-subject');
  });

  it('checks the Base64 image itself: type, readability, declared type, size in non-subject mode', () => {
    rejects(nonSubject({ images: [`data:image/gif;base64,${pngHeader(200, 200).toString('base64')}`] }), 'images[0]');
    rejects(nonSubject({ images: ['data:image/png;base64,AAAA'] }), 'images[0]');
    rejects(nonSubject({ images: ['data:image/png;base64,not base64!'] }), 'images[0]');
    rejects(nonSubject({ images: [png(200, 200, 'image/jpeg')] }), 'images[0]');
    rejects(nonSubject({ images: [png(127, 128)] }), 'images[0]');
    rejects(nonSubject({ images: [png(128, 127)] }), 'images[0]');
    expect(validateVdCreateRequest(nonSubject({ images: [png(128, 128)] })).echo.images).toHaveLength(1);
    // The 128-pixel minimum is a non-subject rule only.
    expect(
      validateVdCreateRequest(subject({ subjects: [{ name: 'cat', images: [png(64, 64)] }] })).echo.images,
    ).toHaveLength(1);
  });

  it('accepts Base64 videos of an allowed type whose bytes are that video', () => {
    const video = dataUrl('video/mp4', mp4(5));
    expect(validateVdCreateRequest(nonSubject({ videos: [video] })).billing.referenceVideos).toBe(1);
    rejects(nonSubject({ videos: [video.replace('video/mp4', 'video/webm')] }), 'videos[0]');
    rejects(nonSubject({ videos: ['data:video/mp4;base64,AAAA'] }), 'videos[0]');
  });

  it('never echoes or snapshots a Base64 payload', () => {
    const image = png(300, 200);
    const bytes = mp4(5, 'qt  ');
    const video = dataUrl('video/quicktime', bytes);
    const r = validateVdCreateRequest(nonSubject({ images: [IMG, image], videos: [video] }));
    expect(r.upstreamBody.images).toEqual([IMG, image]);
    expect(r.echo.images).toEqual([IMG, '[base64 image/png 33 bytes]']);
    expect(r.echo.videos).toEqual([`[base64 video/quicktime ${bytes.length} bytes]`]);
    expect(r.snapshot.images).toEqual([IMG, '[base64 image/png 33 bytes]']);
    expect(r.snapshot.videos).toEqual([`[base64 video/quicktime ${bytes.length} bytes]`]);
    expect(JSON.stringify([r.echo, r.snapshot])).not.toContain(';base64,');
    expect(r.snapshot).toEqual({ ...r.upstreamBody, images: r.snapshot.images, videos: r.snapshot.videos });

    const s = validateVdCreateRequest(subject({ subjects: [{ name: 'cat', images: [image] }] }));
    expect(JSON.stringify([s.echo, s.snapshot])).not.toContain(';base64,');
    expect((s.snapshot.subjects as Array<{ images: string[] }>)[0].images).toEqual(['[base64 image/png 33 bytes]']);
  });
});

describe('echo and hand-over', () => {
  it('flattens subject images in subject order and echoes no videos in subject mode', () => {
    const r = validateVdCreateRequest({
      model: 'vdq2-pro',
      prompt: '@a and @b',
      subjects: [
        { name: 'a', images: ['https://x.example/1.png', 'https://x.example/2.png'] },
        { name: 'b', videos: ['https://x.example/b.mp4'] },
        { name: 'c', images: ['https://x.example/3.png'], voice_id: 'v1', server_id: 's1' },
      ],
    });
    expect(r.echo.images).toEqual(['https://x.example/1.png', 'https://x.example/2.png', 'https://x.example/3.png']);
    expect(r.echo.videos).toBeUndefined();
    expect(r.upstreamBody.subjects).toEqual([
      { name: 'a', images: ['https://x.example/1.png', 'https://x.example/2.png'] },
      { name: 'b', videos: ['https://x.example/b.mp4'] },
      { name: 'c', images: ['https://x.example/3.png'], voice_id: 'v1', server_id: 's1' },
    ]);
    expect(r.upstreamBody.auto_subjects).toBe(false);
    expect(r.billing.referenceVideos).toBe(1);
  });

  it('echoes videos only for non-subject calls of a model that takes them', () => {
    expect(validateVdCreateRequest(nonSubject()).echo.videos).toEqual([]);
    expect('videos' in validateVdCreateRequest(nonSubject({ model: 'vdq2' })).echo).toBe(false);
    expect('videos' in validateVdCreateRequest(nonSubject()).upstreamBody).toBe(false);
  });

  it('picks a random seed in 1..2147483647 when absent or 0, and keeps a given one', () => {
    const seeds = Array.from({ length: 50 }, () => validateVdCreateRequest(nonSubject()).echo.seed);
    for (const seed of seeds) expect(Number.isInteger(seed) && seed >= 1 && seed <= 2147483647).toBe(true);
    expect(new Set(seeds).size).toBeGreaterThan(1);
    expect(validateVdCreateRequest(nonSubject({ seed: 0 }), { randomSeed: () => 9 }).echo.seed).toBe(9);
    const r = validateVdCreateRequest(nonSubject({ seed: 42 }), { randomSeed: () => 9 });
    expect([r.echo.seed, r.upstreamBody.seed]).toEqual([42, 42]);
  });

  it('keeps callback_url out of the upstream body and checks it is an http(s) URL', () => {
    const r: VdCreateRequest = validateVdCreateRequest(nonSubject({ callback_url: 'https://hooks.example.com/vd' }));
    expect(r.callbackUrl).toBe('https://hooks.example.com/vd');
    expect('callback_url' in r.upstreamBody).toBe(false);
    expect(validateVdCreateRequest(nonSubject()).callbackUrl).toBeUndefined();
    for (const url of ['ftp://x.example/h', 'not a url', 'javascript:alert(1)'])
      rejects(nonSubject({ callback_url: url }), 'callback_url');
  });

  it('keeps long Base64-looking pass-through text verbatim in the snapshot (only data URLs are redacted)', () => {
    const payload = 'A'.repeat(400);
    const prompt = 'B'.repeat(400);
    const r = validateVdCreateRequest(nonSubject({ payload, prompt }));
    expect([r.snapshot.payload, r.snapshot.prompt, r.echo.payload]).toEqual([payload, prompt, payload]);
  });

  it('forwards the pass-through fields when given and echoes the payload', () => {
    const r = validateVdCreateRequest(
      nonSubject({
        payload: 'p1',
        meta_data: '{"a":1}',
        wm_url: 'https://x.example/logo.png',
        watermark: true,
        wm_position: 1,
      }),
    );
    expect(r.upstreamBody).toMatchObject({
      payload: 'p1',
      meta_data: '{"a":1}',
      wm_url: 'https://x.example/logo.png',
      watermark: true,
      wm_position: 1,
    });
    expect([r.echo.payload, r.echo.watermark]).toEqual(['p1', true]);
    rejects(nonSubject({ wm_url: 'logo.png' }), 'wm_url');
    for (const key of ['payload', 'meta_data', 'wm_url'])
      expect(key in validateVdCreateRequest(nonSubject()).upstreamBody).toBe(false);
  });

  it('echoes audio as off for non-q3 models in non-subject mode and sends no audio field', () => {
    const r = validateVdCreateRequest(nonSubject({ model: 'vdq1', audio: false }));
    expect(r.echo.audio).toBe(false);
    expect('audio' in r.upstreamBody).toBe(false);
  });
});
