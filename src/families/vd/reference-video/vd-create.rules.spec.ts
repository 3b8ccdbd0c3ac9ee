/**
 * Table-driven walk of the vd rule matrix: for every model and mode, every rule is tried at
 * its boundary (accepted) and just past it (rejected with 400 `invalid_request` and the exact
 * `param`), and the defaults are checked in the echo.
 *
 * The cases are generated twice: from the rule table, and from `STATED_MATRIX` below, written out
 * by hand from the product's stated limits. A wrong table row therefore fails both the equality
 * test and the cases generated from the written-out matrix.
 */
import { VD_MODEL_RULES, VdMode, VdModelName } from '../rules/vd-model-rules';
import { dataUrl, mp4 } from '../../../../test/fixtures/media';
import { FAMILY_REGISTRY } from '../../../../test/support/families';
import { GatewayError } from '../../../platform/errors';
import { VdCreateRequest, validateVdCreateRequest } from './vd-create.rules';

// ---- the matrix as the product states it (independent of the table's data and helpers) -----------

interface ModeExpectation {
  duration: { default: number; min: number; max: number; zeroAllowed: boolean };
  resolution: { default: string; allowed: string[] };
  ratios: string[] | 'any';
  audio: { supported: boolean; default: boolean };
  /**
   * When `off_peak: true` is accepted. Subject mode: "q3 models support it when `audio` is true; q2,
   * q1 and 2.0 series when `audio` is false". Non-subject mode: "`vdq3-mix` does not support it"
   * and no audio condition, so every other model takes it with audio on or off.
   */
  offPeak: 'never' | 'audio-on' | 'audio-off' | 'any';
  bgm: 'not-a-field' | 'no-effect' | 'no-effect-at-9-10' | 'effect';
  promptMax: number;
  /** `videoSeconds`: the longest a subject's video may be (null: no videos). */
  subjects?: {
    imageSubjects: number;
    videoSubjects: number;
    imagesEach: number;
    videosEach: number;
    videoSeconds: number | null;
  };
  /** `videoMaxSeconds[n - 1]`: the longest each video may be when n are sent. */
  references?: {
    minImages: number;
    maxImages: number;
    maxImagesWithVideo: number;
    maxVideos: number;
    videoMaxSeconds: number[];
  };
}
type Matrix = Record<string, Partial<Record<VdMode, ModeExpectation>>>;

const durations = (min: number, max: number, byDefault = 5) => ({ default: byDefault, min, max, zeroAllowed: false });
const SIZES = ['540p', '720p', '1080p'];
const THREE_RATIOS = ['16:9', '9:16', '1:1'];
const FIVE_RATIOS = ['16:9', '9:16', '4:3', '3:4', '1:1'];
const IMAGE_SUBJECTS = { imageSubjects: 7, videoSubjects: 0, imagesEach: 3, videosEach: 0, videoSeconds: null };
const IMAGE_REFERENCES = { minImages: 1, maxImages: 7, maxImagesWithVideo: 7, maxVideos: 0, videoMaxSeconds: [] };
const AUDIO_ON = { supported: true, default: true };
const AUDIO_OFF = { supported: true, default: false };
const NO_AUDIO = { supported: false, default: false };

/** Subject mode as stated: what most models share, and each model's own differences over it. */
const subject = (own: Partial<ModeExpectation>): ModeExpectation => ({
  duration: durations(1, 10),
  resolution: { default: '720p', allowed: SIZES },
  ratios: THREE_RATIOS,
  audio: AUDIO_OFF,
  offPeak: 'audio-off',
  bgm: 'not-a-field',
  promptMax: 5000,
  subjects: IMAGE_SUBJECTS,
  ...own,
});

/** Non-subject mode as stated, the same way. */
const nonSubject = (own: Partial<ModeExpectation>): ModeExpectation => ({
  duration: durations(1, 10),
  resolution: { default: '720p', allowed: SIZES },
  ratios: THREE_RATIOS,
  audio: NO_AUDIO,
  offPeak: 'any',
  bgm: 'effect',
  promptMax: 2000,
  references: IMAGE_REFERENCES,
  ...own,
});

const Q3_SUBJECT = subject({ duration: durations(3, 16), audio: AUDIO_ON, offPeak: 'audio-on' });
const Q3_NON_SUBJECT = nonSubject({ duration: durations(3, 16), audio: AUDIO_ON, bgm: 'no-effect' });
const Q2_NON_SUBJECT = nonSubject({ ratios: FIVE_RATIOS, bgm: 'no-effect-at-9-10' });
const Q1_SIZES = { default: '1080p', allowed: ['1080p'] };
const V2_SIZES = { default: '360p', allowed: ['360p', '720p'] };

const STATED_MATRIX: Matrix = {
  'vdq3-mix': {
    'non-subject': { ...Q3_NON_SUBJECT, resolution: { default: '720p', allowed: ['720p', '1080p'] }, offPeak: 'never' },
  },
  'vdq3-turbo': { subject: Q3_SUBJECT, 'non-subject': Q3_NON_SUBJECT },
  vdq3: { subject: Q3_SUBJECT, 'non-subject': Q3_NON_SUBJECT },
  'vdq2-pro': {
    // "one 5-second video" per video subject; "at most one 8-second video or two 5-second videos".
    subject: subject({
      ratios: 'any',
      subjects: { imageSubjects: 4, videoSubjects: 2, imagesEach: 3, videosEach: 1, videoSeconds: 5 },
    }),
    'non-subject': {
      ...Q2_NON_SUBJECT,
      references: { ...IMAGE_REFERENCES, maxImagesWithVideo: 4, maxVideos: 2, videoMaxSeconds: [8, 5] },
    },
  },
  vdq2: { subject: subject({ ratios: 'any' }), 'non-subject': Q2_NON_SUBJECT },
  vdq1: {
    subject: subject({ duration: durations(5, 5), resolution: Q1_SIZES }),
    'non-subject': nonSubject({ duration: durations(5, 5), resolution: Q1_SIZES }),
  },
  'vd2.0': {
    subject: subject({ duration: durations(4, 4, 4), resolution: V2_SIZES }),
    'non-subject': nonSubject({ duration: durations(4, 4, 4), resolution: V2_SIZES }),
  },
};

/** The rule table, read into the same shape. */
function matrixFromTable(): Matrix {
  const out: Matrix = {};
  for (const [model, rules] of Object.entries(VD_MODEL_RULES)) {
    out[model] = {};
    for (const mode of ['subject', 'non-subject'] as VdMode[]) {
      const r = rules.modes[mode];
      if (!r) continue;
      const bgm = r.bgm;
      out[model][mode] = {
        duration: { ...r.duration },
        resolution: { default: r.resolution.default, allowed: [...r.resolution.allowed] },
        ratios: r.aspectRatio.allowed === 'any' ? 'any' : [...r.aspectRatio.allowed],
        audio: { ...r.audio },
        offPeak: !r.offPeak.supported
          ? 'never'
          : r.offPeak.whenAudio === 'any'
            ? 'any'
            : r.offPeak.whenAudio
              ? 'audio-on'
              : 'audio-off',
        bgm: !bgm.field
          ? 'not-a-field'
          : 'noEffectDurations' in bgm
            ? (`no-effect-at-${bgm.noEffectDurations.join('-')}` as ModeExpectation['bgm'])
            : bgm.effect === 'never'
              ? 'no-effect'
              : 'effect',
        promptMax: r.promptMaxChars,
        ...('subjects' in r
          ? {
              subjects: {
                imageSubjects: r.subjects.maxImageSubjects,
                videoSubjects: r.subjects.maxVideoSubjects,
                imagesEach: r.subjects.maxImagesPerSubject,
                videosEach: r.subjects.maxVideosPerSubject,
                videoSeconds: r.subjects.videoMaxSeconds,
              },
            }
          : {}),
        ...('references' in r
          ? { references: { ...r.references, videoMaxSeconds: [...r.references.videoMaxSeconds] } }
          : {}),
      };
    }
  }
  return out;
}

// ---- fixtures ------------------------------------------------------------------------------------

const IMG = 'https://cdn.example.com/ref/cat.png';
const img = (i: number) => `https://cdn.example.com/ref/img${i}.jpg`;
const vid = (i: number) => `https://cdn.example.com/ref/clip${i}.mp4`;
/** A Base64 MP4 of `seconds`. */
const clip = (seconds: number) => dataUrl('video/mp4', mp4(seconds));
const SEED = 777;
const ALL_RESOLUTIONS = ['360p', '540p', '720p', '1080p'];
const ALL_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4'];
const PAYLOAD_MAX = 'p'.repeat(1_048_576);
const PAYLOAD_OVER = PAYLOAD_MAX + 'p';

function run(body: unknown): VdCreateRequest | GatewayError {
  try {
    return validateVdCreateRequest(body, { randomSeed: () => SEED });
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
}

function accepted(body: unknown): VdCreateRequest {
  const result = run(body);
  if (result instanceof GatewayError)
    throw new Error(`expected acceptance, got 400 param=${result.param}: ${result.message}`);
  return result;
}

function expectRejected(body: unknown, param: string | null, status = 400, code = 'invalid_request'): GatewayError {
  const result = run(body);
  if (!(result instanceof GatewayError)) throw new Error(`expected rejection on '${param}', but it was accepted`);
  expect({ status: result.status, code: result.code, param: result.param }).toEqual({ status, code, param });
  return result;
}

function baseBody(model: string, mode: VdMode): Record<string, unknown> {
  return mode === 'subject'
    ? { model, prompt: 'a @s0 walks', subjects: [{ name: 's0', images: [IMG] }] }
    : { model, prompt: 'a cat walks', images: [IMG] };
}

const subjectsOf = (count: number, each: (i: number) => Record<string, unknown>) =>
  Array.from({ length: count }, (_, i) => ({ name: `s${i}`, ...each(i) }));
const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));

// ---- case generation -----------------------------------------------------------------------------

interface Case {
  name: string;
  body: Record<string, unknown>;
  /** Rejected with this param, or accepted and then checked. */
  param?: string;
  check?: (r: VdCreateRequest) => void;
}

function bgmAdds(rule: ModeExpectation['bgm'], duration: number): boolean {
  if (rule === 'effect') return true;
  if (rule === 'no-effect-at-9-10') return duration !== 9 && duration !== 10;
  return false;
}

function offPeakOk(rule: ModeExpectation['offPeak'], audio: boolean): boolean {
  return rule === 'any' ? true : rule === 'audio-on' ? audio : rule === 'audio-off' ? !audio : false;
}

function casesFor(model: string, mode: VdMode, e: ModeExpectation): Case[] {
  const base = baseBody(model, mode);
  const cases: Case[] = [];
  const ok = (name: string, patch: Record<string, unknown>, check: (r: VdCreateRequest) => void = () => undefined) =>
    cases.push({ name: `${model} ${mode}: ${name} accepted`, body: { ...base, ...patch }, check });
  const bad = (name: string, patch: Record<string, unknown>, param: string) =>
    cases.push({ name: `${model} ${mode}: ${name} -> ${param}`, body: { ...base, ...patch }, param });

  // Defaults, echoed and sent upstream.
  ok('defaults', {}, (r) => {
    expect(r.mode).toBe(mode);
    expect(r.echo).toEqual({
      model,
      prompt: base.prompt,
      images: [IMG],
      ...(mode === 'non-subject' && e.references!.maxVideos > 0 ? { videos: [] } : {}),
      duration: e.duration.default,
      seed: SEED,
      aspect_ratio: '16:9',
      resolution: e.resolution.default,
      bgm: false,
      audio: e.audio.default,
      audio_type: 'all',
      movement_amplitude: 'auto',
      payload: '',
      off_peak: false,
      watermark: false,
    });
    expect(r.upstreamBody).toMatchObject({
      model,
      duration: e.duration.default,
      resolution: e.resolution.default,
      aspect_ratio: '16:9',
      seed: SEED,
      wm_position: 3,
    });
    expect('audio' in r.upstreamBody).toBe(e.audio.supported);
    expect(r.billing).toEqual({
      kind: 'vd-r2v',
      mode,
      resolution: e.resolution.default,
      durationSeconds: e.duration.default,
      audio: e.audio.default,
      offPeak: false,
      referenceVideos: 0,
    });
  });

  // Duration: both ends accepted, one past each end rejected, 0 per the "0 not accepted" rule, strict type.
  const d = e.duration;
  ok(`duration ${d.min}`, { duration: d.min }, (r) => expect(r.echo.duration).toBe(d.min));
  ok(`duration ${d.max}`, { duration: d.max }, (r) => expect(r.upstreamBody.duration).toBe(d.max));
  if (d.min - 1 !== 0) bad(`duration ${d.min - 1}`, { duration: d.min - 1 }, 'duration');
  bad(`duration ${d.max + 1}`, { duration: d.max + 1 }, 'duration');
  if (d.zeroAllowed) ok('duration 0', { duration: 0 }, (r) => expect(r.echo.duration).toBe(d.default));
  else bad('duration 0', { duration: 0 }, 'duration');
  bad('duration "5"', { duration: String(d.default) }, 'duration');
  bad('duration 4.5', { duration: d.min + 0.5 }, 'duration');

  // Resolution: every allowed value; every other known value rejected.
  for (const value of ALL_RESOLUTIONS) {
    if (e.resolution.allowed.includes(value))
      ok(`resolution ${value}`, { resolution: value }, (r) => expect(r.echo.resolution).toBe(value));
    else bad(`resolution ${value}`, { resolution: value }, 'resolution');
  }
  bad('resolution upper-case', { resolution: e.resolution.default.toUpperCase() }, 'resolution');

  // Aspect ratio: a list, or any W:H ratio.
  if (e.ratios === 'any') {
    for (const value of [...ALL_RATIOS, '21:9', '2:1'])
      ok(`aspect_ratio ${value}`, { aspect_ratio: value }, (r) => expect(r.echo.aspect_ratio).toBe(value));
    for (const value of ['wide', '16/9', '0:1', '16:'])
      bad(`aspect_ratio ${value}`, { aspect_ratio: value }, 'aspect_ratio');
  } else {
    for (const value of [...ALL_RATIOS, '21:9']) {
      if (e.ratios.includes(value))
        ok(`aspect_ratio ${value}`, { aspect_ratio: value }, (r) => expect(r.echo.aspect_ratio).toBe(value));
      else bad(`aspect_ratio ${value}`, { aspect_ratio: value }, 'aspect_ratio');
    }
  }

  // Audio: switchable, or only "off" accepted.
  ok('audio false', { audio: false }, (r) => expect(r.echo.audio).toBe(false));
  if (e.audio.supported)
    ok('audio true', { audio: true }, (r) =>
      expect([r.echo.audio, r.billing.audio, r.upstreamBody.audio]).toEqual([true, true, true]),
    );
  else bad('audio true', { audio: true }, 'audio');

  // audio_type: a subject-mode field.
  if (mode === 'subject') {
    for (const value of ['all', 'speech_only', 'sound_effect_only'])
      ok(`audio_type ${value}`, { audio_type: value }, (r) => expect(r.echo.audio_type).toBe(value));
    bad('audio_type loud', { audio_type: 'loud' }, 'audio_type');
  } else {
    bad('audio_type (not a field of this mode)', { audio_type: 'all' }, 'audio_type');
  }

  // off_peak by series and audio.
  for (const audio of e.audio.supported ? [true, false] : [false]) {
    ok(`off_peak false with audio ${audio}`, { audio, off_peak: false }, (r) => expect(r.echo.off_peak).toBe(false));
    if (offPeakOk(e.offPeak, audio))
      ok(`off_peak true with audio ${audio}`, { audio, off_peak: true }, (r) =>
        expect([r.echo.off_peak, r.billing.offPeak]).toEqual([true, true]),
      );
    else bad(`off_peak true with audio ${audio}`, { audio, off_peak: true }, 'off_peak');
  }

  // bgm: not a subject-mode field; in non-subject mode its effect is echoed.
  if (e.bgm === 'not-a-field') {
    bad('bgm', { bgm: false }, 'bgm');
  } else {
    for (const duration of new Set([d.min, d.max, 8, 9, 10].filter((x) => x >= d.min && x <= d.max))) {
      ok(`bgm true at ${duration}s`, { bgm: true, duration }, (r) => {
        expect(r.echo.bgm).toBe(bgmAdds(e.bgm, duration));
        expect(r.upstreamBody.bgm).toBe(true);
      });
    }
  }

  // Prompt length per mode.
  ok(`prompt of ${e.promptMax} characters`, { prompt: 'x'.repeat(e.promptMax) });
  ok(`prompt of ${e.promptMax} emoji`, { prompt: '🎬'.repeat(e.promptMax) });
  bad(`prompt of ${e.promptMax + 1} characters`, { prompt: 'x'.repeat(e.promptMax + 1) }, 'prompt');
  bad('empty prompt', { prompt: '' }, 'prompt');
  bad('blank prompt', { prompt: ' \t\n ' }, 'prompt');
  bad('prompt missing', { prompt: undefined }, 'prompt');

  // References.
  if (mode === 'subject') {
    const s = e.subjects!;
    const imageSubject = () => ({ images: [IMG] });
    const videoSubject = () => ({ videos: [vid(0)] });
    ok(`${s.imageSubjects} image subjects`, { subjects: subjectsOf(s.imageSubjects, imageSubject) }, (r) =>
      expect(r.echo.images).toHaveLength(s.imageSubjects),
    );
    bad(
      `${s.imageSubjects + 1} image subjects`,
      { subjects: subjectsOf(s.imageSubjects + 1, imageSubject) },
      'subjects',
    );
    bad('no subjects', { subjects: [] }, 'subjects');
    ok(`${s.imagesEach} images in a subject`, { subjects: [{ name: 'a', images: range(s.imagesEach, img) }] }, (r) =>
      expect(r.echo.images).toEqual(range(s.imagesEach, img)),
    );
    bad(
      `${s.imagesEach + 1} images in a subject`,
      { subjects: [{ name: 'a', images: range(s.imagesEach + 1, img) }] },
      'subjects[0].images',
    );
    bad('subject without images or videos', { subjects: [{ name: 'a' }] }, 'subjects[0].images');
    bad('subject with empty images', { subjects: [{ name: 'a', images: [] }] }, 'subjects[0].images');
    bad(
      'bad image in the second subject',
      {
        subjects: [
          { name: 'a', images: [IMG] },
          { name: 'b', images: ['https://x.example/b.gif'] },
        ],
      },
      'subjects[1].images[0]',
    );
    if (s.videosEach > 0) {
      const mixed = [
        ...subjectsOf(s.imageSubjects, imageSubject),
        ...subjectsOf(s.videoSubjects, videoSubject).map((x, i) => ({ ...x, name: `v${i}` })),
      ];
      ok(`${s.imageSubjects} image + ${s.videoSubjects} video subjects`, { subjects: mixed }, (r) => {
        expect(r.billing.referenceVideos).toBe(s.videoSubjects);
        expect(r.echo.videos).toBeUndefined();
      });
      bad(
        `${s.videoSubjects + 1} video subjects`,
        { subjects: subjectsOf(s.videoSubjects + 1, videoSubject) },
        'subjects',
      );
      bad(
        `${s.videosEach + 1} videos in a subject`,
        { subjects: [{ name: 'a', videos: range(s.videosEach + 1, vid) }] },
        'subjects[0].videos',
      );
      const longest = s.videoSeconds!;
      ok(`a subject video of ${longest} s`, { subjects: [{ name: 'a', videos: [clip(longest)] }] });
      ok(`a subject video of ${longest} s padded by its encoder`, {
        subjects: [{ name: 'a', videos: [clip(longest + 0.07)] }],
      });
      bad(
        `a subject video of ${longest + 0.5} s`,
        {
          subjects: [
            { name: 'a', images: [IMG] },
            { name: 'b', videos: [clip(longest + 0.5)] },
          ],
        },
        'subjects[1].videos[0]',
      );
      bad(
        'subject video of another format',
        { subjects: [{ name: 'a', videos: ['https://x.example/a.mkv'] }] },
        'subjects[0].videos[0]',
      );
    } else {
      bad('a video subject', { subjects: [{ name: 'a', images: [IMG], videos: [vid(0)] }] }, 'subjects[0].videos');
    }
  } else {
    const refs = e.references!;
    ok(`${refs.minImages} image`, { images: range(refs.minImages, img) });
    bad(`${refs.minImages - 1} images`, { images: range(refs.minImages - 1, img) }, 'images');
    ok(`${refs.maxImages} images`, { images: range(refs.maxImages, img) }, (r) =>
      expect(r.echo.images).toEqual(range(refs.maxImages, img)),
    );
    bad(`${refs.maxImages + 1} images`, { images: range(refs.maxImages + 1, img) }, 'images');
    if (refs.maxVideos > 0) {
      ok(
        `${refs.maxVideos} videos with ${refs.maxImagesWithVideo} images`,
        { images: range(refs.maxImagesWithVideo, img), videos: range(refs.maxVideos, vid) },
        (r) => {
          expect(r.echo.videos).toEqual(range(refs.maxVideos, vid));
          expect(r.upstreamBody.videos).toEqual(range(refs.maxVideos, vid));
          expect(r.billing.referenceVideos).toBe(refs.maxVideos);
        },
      );
      bad(
        `${refs.maxImagesWithVideo + 1} images with a video`,
        { images: range(refs.maxImagesWithVideo + 1, img), videos: [vid(0)] },
        'images',
      );
      bad(`${refs.maxVideos + 1} videos`, { videos: range(refs.maxVideos + 1, vid) }, 'videos');
      refs.videoMaxSeconds.forEach((longest, i) => {
        const count = i + 1;
        ok(`${count} videos of ${longest} s`, { videos: range(count, () => clip(longest)) });
        ok(`${count} videos of ${longest} s padded by their encoder`, {
          videos: range(count, () => clip(longest + 0.07)),
        });
        bad(
          `${count} videos, the last of ${longest + 0.5} s`,
          { videos: [...range(count - 1, () => clip(longest)), clip(longest + 0.5)] },
          `videos[${count - 1}]`,
        );
      });
      bad('video of another format', { videos: ['https://x.example/a.webm'] }, 'videos[0]');
    } else {
      bad('a video', { videos: [vid(0)] }, 'videos');
    }
  }

  // Limits shared by every model.
  ok('payload at its limit', { payload: PAYLOAD_MAX }, (r) => expect(r.echo.payload).toHaveLength(1_048_576));
  bad('payload past its limit', { payload: PAYLOAD_OVER }, 'payload');
  // "at most 1048576 characters", counted as Unicode code points like the prompt: an emoji is one
  // character (two UTF-16 units), a variation selector is one more (class-validator's MaxLength drops it).
  ok('payload of 1048576 emoji', { payload: '🎬'.repeat(1_048_576) }, (r) =>
    expect([...(r.echo.payload as string)]).toHaveLength(1_048_576),
  );
  bad('payload of 1048577 emoji', { payload: '🎬'.repeat(1_048_577) }, 'payload');
  bad('payload of 1048578 code points with variation selectors', { payload: 'a\uFE0F'.repeat(524_289) }, 'payload');
  ok('meta_data JSON', { meta_data: '{"k":[1,2]}' }, (r) => expect(r.upstreamBody.meta_data).toBe('{"k":[1,2]}'));
  bad('meta_data not JSON', { meta_data: '{k:1}' }, 'meta_data');
  bad('meta_data as an object', { meta_data: { k: 1 } }, 'meta_data');
  for (const p of [1, 4])
    ok(`wm_position ${p}`, { watermark: true, wm_position: p }, (r) => expect(r.upstreamBody.wm_position).toBe(p));
  for (const p of [0, 5]) bad(`wm_position ${p}`, { wm_position: p }, 'wm_position');
  ok('seed 0 is random', { seed: 0 }, (r) => expect(r.echo.seed).toBe(SEED));
  ok('seed 2147483647', { seed: 2147483647 }, (r) =>
    expect([r.echo.seed, r.upstreamBody.seed]).toEqual([2147483647, 2147483647]),
  );
  bad('seed 2147483648', { seed: 2147483648 }, 'seed');
  bad('seed -1', { seed: -1 }, 'seed');
  bad('unknown field', { colour: 'red' }, 'colour');
  return cases;
}

function allCases(matrix: Matrix): Case[] {
  const cases: Case[] = [];
  for (const [model, modes] of Object.entries(matrix)) {
    for (const mode of ['subject', 'non-subject'] as VdMode[]) {
      const e = modes[mode];
      if (e) cases.push(...casesFor(model, mode, e));
      else
        cases.push({
          name: `${model}: ${mode} mode not offered -> model`,
          body: baseBody(model, mode),
          param: 'model',
        });
    }
  }
  return cases;
}

// ---- the walk ------------------------------------------------------------------------------------

describe('vd rule table', () => {
  it('says what the written-out matrix says, row by row', () => {
    expect(matrixFromTable()).toEqual(STATED_MATRIX);
  });

  it('covers exactly the vd models of the catalogue', () => {
    const catalogue = FAMILY_REGISTRY.all()
      .filter((m) => m.family === 'vd')
      .map((m) => m.name);
    expect(Object.keys(VD_MODEL_RULES).sort()).toEqual(catalogue.sort());
    expect(Object.keys(STATED_MATRIX).sort()).toEqual(catalogue.sort());
  });
});

describe.each([
  ['written-out expectations', STATED_MATRIX],
  ['rule table', matrixFromTable()],
])('validateVdCreateRequest, cases from the %s', (_source, matrix) => {
  const cases = allCases(matrix);

  it('generates a case for every model and mode', () => {
    for (const model of Object.keys(VD_MODEL_RULES) as VdModelName[]) {
      for (const mode of ['subject', 'non-subject'])
        expect(
          cases.some((c) => c.name.startsWith(`${model} ${mode}:`) || c.name.startsWith(`${model}: ${mode}`)),
        ).toBe(true);
    }
    expect(cases.length).toBeGreaterThan(500);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const body = Object.fromEntries(Object.entries(c.body).filter(([, v]) => v !== undefined));
    if (c.param !== undefined) expectRejected(body, c.param);
    else c.check!(accepted(body));
  });
});

describe('vd prompt length in messages', () => {
  const message = (prompt: string) => expectRejected({ ...baseBody('vdq3', 'non-subject'), prompt }, 'prompt').message;

  it('gives the count in characters, an emoji being one', () => {
    expect(message('x'.repeat(2001))).toMatch(/at most 2000 characters in non-subject mode; got 2001\.$/);
    expect(message('🎬'.repeat(2001))).toMatch(/got 2001\.$/);
  });

  it('stops counting a body-sized prompt at 100,000 characters (a 64 MiB prompt must not hold the event loop)', () => {
    expect(message('x'.repeat(3_000_000))).toMatch(/got more than 100000\.$/);
  });
});
