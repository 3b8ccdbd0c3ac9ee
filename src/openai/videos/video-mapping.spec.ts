import { validateAxCreateRequest } from '../../families/ax/reference-video/ax-create.rules';
import { validateVdCreateRequest } from '../../families/vd/reference-video/vd-create.rules';
import { GatewayError } from '../../platform/errors';
import {
  AX_FACE,
  MISSING_REFERENCE,
  VD_FACE,
  readReference,
  readSeconds,
  readSize,
  rejectConflicts,
  renameParam,
} from './video-mapping';

const URL = 'https://example.com/cat.png';

function thrown(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected a GatewayError');
}

describe('the /v1/videos mapping table', () => {
  describe('ax', () => {
    it('maps size and seconds onto resolution and ratio (new protocol) or W*H size (old protocol)', () => {
      const newer = AX_FACE.nativeBody(
        { model: 'wx2.7-r2v', prompt: 'p', seconds: 4, size: '1280x720', image: URL },
        {},
      );
      expect(newer).toEqual({
        model: 'wx2.7-r2v',
        input: { prompt: 'p', media: [{ type: 'reference_image', url: URL }] },
        parameters: { duration: 4, resolution: '720P', ratio: '16:9' },
      });
      const older = AX_FACE.nativeBody(
        { model: 'wx2.6-r2v', prompt: 'p', seconds: 8, size: '1080x1920', image: URL },
        {},
      );
      expect(older).toEqual({
        model: 'wx2.6-r2v',
        input: { prompt: 'p', reference_urls: [URL] },
        parameters: { duration: 8, size: '1080*1920' },
      });
      // Both pass the family's own rules.
      expect(validateAxCreateRequest(newer).billing).toMatchObject({ resolution: '720P', durationSeconds: 4 });
      expect(validateAxCreateRequest(older).billing).toMatchObject({ resolution: '1080P', durationSeconds: 8 });
    });

    it('keeps native fields in their sections and reads size, seconds and prompt back from the stored body', () => {
      const body = AX_FACE.nativeBody(
        { model: 'wx2.7-r2v', prompt: 'p', size: '960x960', image: URL },
        { input: { negative_prompt: 'blur' }, parameters: { seed: 7 } },
      );
      expect(body).toMatchObject({ input: { negative_prompt: 'blur', prompt: 'p' }, parameters: { seed: 7 } });
      const stored = validateAxCreateRequest(body).snapshot;
      expect(AX_FACE.facts(stored)).toEqual({ prompt: 'p', seconds: '5', size: '960x960' });
      expect(AX_FACE.facts({ input: { prompt: 'q' }, parameters: { size: '832*1088', duration: 3 } })).toEqual({
        prompt: 'q',
        seconds: '3',
        size: '832x1088',
      });
    });
  });

  describe('vd', () => {
    it('maps size onto resolution and aspect_ratio, seconds onto duration, the reference onto images', () => {
      const body = VD_FACE.nativeBody(
        { model: 'vdq3', prompt: 'p', seconds: 8, size: '720x1280', image: URL },
        { seed: 3 },
      );
      expect(body).toEqual({
        model: 'vdq3',
        prompt: 'p',
        duration: 8,
        images: [URL],
        resolution: '720p',
        aspect_ratio: '9:16',
        seed: 3,
      });
      const request = validateVdCreateRequest(body);
      expect(VD_FACE.facts(request.snapshot)).toEqual({ prompt: 'p', seconds: '8', size: '720x1280' });
    });

    it('has no size for a stored ratio outside its table', () => {
      expect(VD_FACE.facts({ prompt: 'p', duration: 5, resolution: '720p', aspect_ratio: '21:9' }).size).toBeNull();
    });
  });

  describe('reading the fields', () => {
    it('seconds: a whole number as a string or a number', () => {
      expect(readSeconds('8')).toBe(8);
      expect(readSeconds(12)).toBe(12);
      expect(readSeconds(undefined)).toBeUndefined();
      for (const bad of ['4.5', 'four', '', 0, -1, '1000', true])
        expect(thrown(() => readSeconds(bad))).toMatchObject({ status: 400, param: 'seconds' });
    });

    it("size: one of the family's WxH values", () => {
      expect(readSize('1920x1080', AX_FACE)).toBe('1920x1080');
      expect(readSize('540x960', VD_FACE)).toBe('540x960');
      expect(thrown(() => readSize('540x960', AX_FACE))).toMatchObject({ status: 400, param: 'size' });
      expect(thrown(() => readSize('1024x1792', VD_FACE))).toMatchObject({ status: 400, param: 'size' });
      expect(thrown(() => readSize(1280, VD_FACE))).toMatchObject({ param: 'size' });
    });

    it('input_reference: {image_url} or an uploaded image; file_id and anything else are 400', () => {
      expect(readReference({ image_url: URL })).toBe(URL);
      expect(readReference('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
      const refused: Array<[unknown, string, RegExp]> = [
        [{ file_id: 'file_1' }, 'input_reference.file_id', /^input_reference\.file_id is not supported/],
        [{ image_url: URL, file_id: 'f' }, 'input_reference.file_id', /file_id is not supported/],
        [{ image_url: '' }, 'input_reference.image_url', /image_url must be a non-empty URL string/],
        [{ image_url: 123 }, 'input_reference.image_url', /image_url must be a non-empty URL string/],
        [{ image_url: URL, extra: 1 }, 'input_reference.extra', /^Unknown field 'input_reference\.extra'/],
        ['https://x/y.png', 'input_reference', /got a bare URL \(put it in image_url\)/],
        [[URL], 'input_reference', /got an array/],
      ];
      for (const [bad, param, message] of refused) {
        const error = thrown(() => readReference(bad));
        expect(error).toMatchObject({ status: 400, param });
        expect(error.message).toMatch(message);
        // Only a request that names file_id is told about file_id.
        if (!param.endsWith('file_id')) expect(error.message).not.toContain('file_id');
      }
    });
  });

  it('refuses a face field together with the native field it fills', () => {
    expect(thrown(() => rejectConflicts(VD_FACE, { model: 'vdq3', seconds: 5 }, { duration: 5 }))).toMatchObject({
      param: 'duration',
    });
    expect(
      thrown(() =>
        rejectConflicts(AX_FACE, { model: 'wx2.7-r2v', size: '1280x720' }, { parameters: { ratio: '1:1' } }),
      ),
    ).toMatchObject({ param: 'parameters.ratio' });
    expect(() => rejectConflicts(VD_FACE, { model: 'vdq3', seconds: 5 }, { seed: 1 })).not.toThrow();
  });

  it("names the face's field in a family error about a native field the face filled, not one the caller sent", () => {
    const error = GatewayError.invalid('parameters.duration must be 2 to 15 seconds.', 'parameters.duration');
    expect(renameParam(error, AX_FACE, { model: 'wx2.7-r2v' }, {})).toMatchObject({
      param: 'seconds',
      message: 'seconds must be 2 to 15 seconds.',
    });
    const image = GatewayError.invalid('images[0] is not a readable image.', 'images[0]');
    expect(renameParam(image, VD_FACE, { model: 'vdq3', image: 'data:image/png;base64,AAAA' }, {})).toMatchObject({
      param: 'input_reference',
      message: 'input_reference is not a readable image.',
    });
    // Only the field path at the head is renamed: the same word in the prose after it stays.
    const count = GatewayError.invalid("images must hold 1 to 7 images for 'vdq3'; got 0.", 'images');
    expect(renameParam(count, VD_FACE, { model: 'vdq3', image: 'data:image/png;base64,AAAA' }, {})).toMatchObject({
      param: 'input_reference',
      message: "input_reference must hold 1 to 7 images for 'vdq3'; got 0.",
    });
    expect(renameParam(error, AX_FACE, { model: 'wx2.7-r2v' }, { parameters: { duration: 20 } }).param).toBe(
      'parameters.duration',
    );
    const media = GatewayError.invalid('bad url', 'input.media[0].url');
    expect(renameParam(media, AX_FACE, { model: 'wx2.7-r2v', image: 'https://example.com/a.png' }, {}).param).toBe(
      'input_reference',
    );
    const refs = GatewayError.invalid('please provide reference_video_urls or reference_urls', 'input.reference_urls');
    const renamed = renameParam(refs, AX_FACE, { model: 'wx2.6-r2v' }, {});
    expect(renamed).toMatchObject({ param: 'input_reference', message: MISSING_REFERENCE });
    const subjects = GatewayError.invalid("subjects is required: send 'subjects' or 'images'.", 'subjects');
    expect(renameParam(subjects, VD_FACE, { model: 'vdq3' }, {})).toMatchObject({
      param: 'input_reference',
      message: MISSING_REFERENCE,
    });
    const seed = GatewayError.invalid('seed', 'seed');
    expect(renameParam(seed, VD_FACE, { model: 'vdq3' }, { seed: -1 })).toBe(seed);
  });
});
