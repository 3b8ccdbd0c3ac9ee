/**
 * Validation of `POST /vd/ent/v2/reference2video` (both modes): detects the mode,
 * checks shape with the mode's DTO, applies the model's rules from `VD_MODEL_RULES`, and produces
 * what the rest of the gateway needs: the upstream body with defaults applied, the values the
 * creation response echoes, a Base64-free snapshot, and the billable usage.
 *
 * Every check reads the rule table; nothing here branches on a model name. The first violation
 * throws a 400 `invalid_request` GatewayError whose `param` is the offending field's body path.
 */
import { randomInt } from 'crypto';
import { VdBillableUsage } from '../vd.pricing';
import { checkVdImage, checkVdVideo, redactBase64 } from '../rules/vd-media';
import { MediaUrlPolicy, PUBLIC_MEDIA_URLS, checkPublicHost } from '../../common/media-url-policy';
import {
  VD_LIMITS,
  VD_MODEL_NAMES,
  VD_MODEL_RULES,
  VdMode,
  VdModelRules,
  VdModeRules,
  VdNonSubjectModeRules,
  VdSubjectModeRules,
  aspectRatioAccepted,
  bgmTakesEffect,
  durationAccepted,
  effectiveDuration,
  maxImagesFor,
  offPeakSupported,
  vdModelRules,
  vdModesOf,
} from '../rules/vd-model-rules';
import { shownModelName } from '../../../core/accounts/guards/model-access.guard';
import { GatewayError } from '../../../platform/errors';
import type { VdTaskFields } from '../../../upstream/vd/vd.wire';
import { validateDto } from '../../../platform/validation/validate-dto';
import { VdCreateCommonDto, VdNonSubjectModeRequestDto, VdSubjectModeRequestDto } from './vd-create.dto';
import { charCountForMessage, withinChars } from '../../common/text-rules';

/** The values the creation response echoes, as they will be used. */
export type VdCreateEcho = Omit<VdTaskFields, 'images' | 'videos' | 'credits'> & {
  /** Non-subject: `images`. Subject mode: every subject's images, flattened in subject order. Base64 entries as placeholders. */
  images: string[];
  /** Only for non-subject calls with a model that takes videos (`vdq2-pro`); `[]` when none were sent. */
  videos?: string[];
};

export interface VdCreateRequest {
  model: string;
  mode: VdMode;
  /** The native body to send, with every default applied; never carries `callback_url`. */
  upstreamBody: Record<string, unknown>;
  echo: VdCreateEcho;
  /** `upstreamBody` with each Base64 payload replaced by `[base64 <type> <n> bytes]`; safe to store and log. */
  snapshot: Record<string, unknown>;
  billing: VdBillableUsage;
  /** The caller's callback URL; the gateway delivers callbacks itself. */
  callbackUrl?: string;
}

export interface VdValidateOptions {
  /** Source of the seed used when none (or 0) is given; defaults to a uniform 1..2147483647. */
  randomSeed?: () => number;
  /** Which hosts media URLs (references, `wm_url`) may name; default: public ones only. */
  urls?: MediaUrlPolicy;
}

const defaultRandomSeed = () => randomInt(1, VD_LIMITS.seed.max + 1);

/** The body field that selects each mode, for messages and for naming a missing one. */
const MODE_FIELD: Record<VdMode, string> = { subject: 'subjects', 'non-subject': 'images' };

/** Models whose non-subject mode accepts videos, for messages (read from the table). */
const VIDEO_MODELS = VD_MODEL_NAMES.filter(
  (m) => (VD_MODEL_RULES[m].modes['non-subject']?.references.maxVideos ?? 0) > 0,
);

export function validateVdCreateRequest(body: unknown, options: VdValidateOptions = {}): VdCreateRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw GatewayError.invalid('The request body must be a JSON object.');
  }
  const raw = body as Record<string, unknown>;
  const rules = resolveModel(raw.model);
  const mode = detectMode(raw, rules);
  const random = options.randomSeed ?? defaultRandomSeed;
  const urls = options.urls ?? PUBLIC_MEDIA_URLS;
  return mode === 'subject'
    ? buildSubjectRequest(
        validateDto(VdSubjectModeRequestDto, raw),
        rules,
        rules.modes.subject as VdSubjectModeRules,
        random,
        urls,
      )
    : buildNonSubjectRequest(
        validateDto(VdNonSubjectModeRequestDto, raw),
        rules,
        rules.modes['non-subject'] as VdNonSubjectModeRules,
        random,
        urls,
      );
}

// ---- model and mode --------------------------------------------------------------------------------

function resolveModel(model: unknown): VdModelRules {
  if (typeof model !== 'string' || model.length === 0)
    throw GatewayError.invalid('model is required and must be a string.', 'model');
  const rules = vdModelRules(model);
  // Names of other families are not models of this endpoint either: 404 naming the field.
  if (!rules) throw GatewayError.modelNotFound(shownModelName(model), 'model');
  return rules;
}

function detectMode(raw: Record<string, unknown>, rules: VdModelRules): VdMode {
  const hasSubjects = raw.subjects !== undefined;
  const referenceField = ['images', 'videos'].find((f) => raw[f] !== undefined);
  if (hasSubjects && referenceField) {
    throw GatewayError.invalid(
      `'subjects' (subject mode) cannot be combined with '${referenceField}' (non-subject mode); send one of them.`,
      referenceField,
    );
  }
  const offered = vdModesOf(rules);
  if (!hasSubjects && !referenceField) {
    // Name the field of the model's first mode, so vdq3-mix callers are pointed at `images`.
    const field = MODE_FIELD[offered[0]];
    const choices = offered.map((m) => `'${MODE_FIELD[m]}' (${m} mode)`).join(' or ');
    throw GatewayError.invalid(`${field} is required: send ${choices}.`, field);
  }
  const mode: VdMode = hasSubjects ? 'subject' : 'non-subject';
  if (!offered.includes(mode)) {
    throw GatewayError.invalid(
      `Model '${rules.model}' does not support ${mode} mode ('${MODE_FIELD[mode]}'); it supports ${offered.join(', ')} mode.`,
      'model',
    );
  }
  return mode;
}

// ---- rules shared by both modes -----------------------------------------------------------------

interface CommonValues {
  duration: number;
  seed: number;
  aspect_ratio: string;
  resolution: string;
  audio: boolean;
  movement_amplitude: string;
  off_peak: boolean;
  watermark: boolean;
  wm_position: number;
}

function checkPrompt(prompt: string, modeRules: VdModeRules, mode: VdMode): void {
  // Characters are counted as Unicode code points, so an emoji is one character.
  if (!/\S/.test(prompt)) throw GatewayError.invalid('prompt must not be empty or blank.', 'prompt');
  if (!withinChars(prompt, modeRules.promptMaxChars)) {
    throw GatewayError.invalid(
      `prompt must be at most ${modeRules.promptMaxChars} characters in ${mode} mode; got ${charCountForMessage(prompt)}.`,
      'prompt',
    );
  }
}

function applyCommonRules(
  dto: VdCreateCommonDto,
  rules: VdModelRules,
  modeRules: VdModeRules,
  mode: VdMode,
  random: () => number,
  urls: MediaUrlPolicy,
): CommonValues {
  const model = rules.model;
  // The upstream fetches the watermark image as it fetches references.
  if (dto.wm_url != null) checkPublicHost(new URL(dto.wm_url), 'wm_url', urls);

  const { audio: audioRule } = modeRules;
  if (dto.audio === true && !audioRule.supported) {
    throw GatewayError.invalid(`audio is not supported by '${model}' in ${mode} mode.`, 'audio');
  }
  const audio = audioRule.supported ? (dto.audio ?? audioRule.default) : false;

  const { duration: durationRule } = modeRules;
  if (dto.duration !== undefined && !durationAccepted(durationRule, dto.duration)) {
    const allowed =
      durationRule.min === durationRule.max ? `only ${durationRule.min}` : `${durationRule.min} to ${durationRule.max}`;
    throw GatewayError.invalid(`duration for '${model}' must be ${allowed} seconds; got ${dto.duration}.`, 'duration');
  }
  const duration = effectiveDuration(durationRule, dto.duration);

  const { aspectRatio } = modeRules;
  if (dto.aspect_ratio !== undefined && !aspectRatioAccepted(aspectRatio, dto.aspect_ratio)) {
    const allowed =
      aspectRatio.allowed === 'any' ? 'a ratio W:H of positive integers' : `one of ${aspectRatio.allowed.join(', ')}`;
    throw GatewayError.invalid(
      `aspect_ratio for '${model}' in ${mode} mode must be ${allowed}; got '${dto.aspect_ratio}'.`,
      'aspect_ratio',
    );
  }

  const { resolution } = modeRules;
  if (dto.resolution !== undefined && !resolution.allowed.includes(dto.resolution)) {
    throw GatewayError.invalid(
      `resolution for '${model}' must be one of ${resolution.allowed.join(', ')}; got '${dto.resolution}'.`,
      'resolution',
    );
  }

  const { offPeak } = modeRules;
  if (dto.off_peak === true && !offPeakSupported(offPeak, audio)) {
    const message = offPeak.supported
      ? `off_peak with '${model}' needs audio ${offPeak.whenAudio === true ? 'on' : 'off'} (audio is ${audio}).`
      : `off_peak is not supported by '${model}'.`;
    throw GatewayError.invalid(message, 'off_peak');
  }

  return {
    duration,
    // "random when absent or 0": pick the value here so the echo shows the seed actually used.
    seed: dto.seed === undefined || dto.seed === 0 ? random() : dto.seed,
    aspect_ratio: dto.aspect_ratio ?? aspectRatio.default,
    resolution: dto.resolution ?? resolution.default,
    audio,
    movement_amplitude: dto.movement_amplitude ?? VD_LIMITS.movementAmplitudeDefault,
    off_peak: dto.off_peak ?? false,
    watermark: dto.watermark ?? false,
    wm_position: dto.wm_position ?? VD_LIMITS.wmPosition.default,
  };
}

/** Pass-through fields sent only when given (no defaults exist for them). */
function passThrough(dto: VdCreateCommonDto): Record<string, unknown> {
  return compact({ wm_url: dto.wm_url, payload: dto.payload, meta_data: dto.meta_data });
}

/** Fields both modes send upstream the same way, with the values that will be used. */
function sharedUpstreamFields(values: CommonValues, dto: VdCreateCommonDto): Record<string, unknown> {
  return {
    duration: values.duration,
    seed: values.seed,
    aspect_ratio: values.aspect_ratio,
    resolution: values.resolution,
    movement_amplitude: values.movement_amplitude,
    off_peak: values.off_peak,
    watermark: values.watermark,
    wm_position: values.wm_position,
    ...passThrough(dto),
  };
}

function echoOf(
  dto: VdCreateCommonDto,
  values: CommonValues,
  images: string[],
  extra: { bgm: boolean; audio_type: string; videos?: string[] },
): VdCreateEcho {
  return {
    model: dto.model,
    prompt: dto.prompt,
    images: redactBase64(images),
    ...(extra.videos ? { videos: redactBase64(extra.videos) } : {}),
    duration: values.duration,
    seed: values.seed,
    aspect_ratio: values.aspect_ratio,
    resolution: values.resolution,
    bgm: extra.bgm,
    audio: values.audio,
    audio_type: extra.audio_type,
    movement_amplitude: values.movement_amplitude,
    payload: dto.payload ?? '',
    off_peak: values.off_peak,
    watermark: values.watermark,
  };
}

// ---- subject mode ----------------------------------------------------------------------------------

function buildSubjectRequest(
  dto: VdSubjectModeRequestDto,
  rules: VdModelRules,
  modeRules: VdSubjectModeRules,
  random: () => number,
  urls: MediaUrlPolicy,
): VdCreateRequest {
  checkPrompt(dto.prompt, modeRules, 'subject');
  const videoCount = checkSubjects(dto, rules, modeRules, urls);
  const values = applyCommonRules(dto, rules, modeRules, 'subject', random, urls);
  const audioType = dto.audio_type ?? VD_LIMITS.audioTypeDefault;

  const upstreamBody: Record<string, unknown> = {
    model: dto.model,
    subjects: dto.subjects.map((s) =>
      compact({ name: s.name, images: s.images, videos: s.videos, voice_id: s.voice_id, server_id: s.server_id }),
    ),
    prompt: dto.prompt,
    auto_subjects: dto.auto_subjects ?? false,
    audio: values.audio,
    audio_type: audioType,
    ...sharedUpstreamFields(values, dto),
  };
  const images = dto.subjects.flatMap((s) => s.images ?? []);
  return {
    model: dto.model,
    mode: 'subject',
    upstreamBody,
    // `bgm` is not a subject-mode field, so no music is added.
    echo: echoOf(dto, values, images, { bgm: false, audio_type: audioType }),
    snapshot: redactBase64(upstreamBody),
    billing: billingOf('subject', values, videoCount),
    ...(dto.callback_url ? { callbackUrl: dto.callback_url } : {}),
  };
}

/** Checks every subject and the subject counts; returns the number of subject videos. */
function checkSubjects(
  dto: VdSubjectModeRequestDto,
  rules: VdModelRules,
  modeRules: VdSubjectModeRules,
  urls: MediaUrlPolicy,
): number {
  const limits = modeRules.subjects;
  if (dto.subjects.length === 0) throw GatewayError.invalid('subjects must hold at least one subject.', 'subjects');
  const names = new Set<string>();
  let imageSubjects = 0;
  let videoSubjects = 0;
  let videos = 0;
  dto.subjects.forEach((subject, i) => {
    const at = `subjects[${i}]`;
    // The prompt refers to subjects as `@name`, so two subjects with one name would be ambiguous.
    if (names.has(subject.name))
      throw GatewayError.invalid(`${at}.name '${subject.name}' is used by an earlier subject.`, `${at}.name`);
    names.add(subject.name);
    const subjectImages = subject.images ?? [];
    const subjectVideos = subject.videos ?? [];
    if (subjectImages.length === 0 && subjectVideos.length === 0) {
      throw GatewayError.invalid(
        `${at} needs images${limits.maxVideosPerSubject > 0 ? ' or videos' : ''}.`,
        `${at}.images`,
      );
    }
    if (subjectImages.length > limits.maxImagesPerSubject) {
      throw GatewayError.invalid(
        `${at}.images holds at most ${limits.maxImagesPerSubject} images; got ${subjectImages.length}.`,
        `${at}.images`,
      );
    }
    if (subjectVideos.length > limits.maxVideosPerSubject) {
      const message =
        limits.maxVideosPerSubject === 0
          ? `${at}.videos is not supported by '${rules.model}'; video subjects need ${VIDEO_MODELS.join(', ')}.`
          : `${at}.videos holds at most ${limits.maxVideosPerSubject} video; got ${subjectVideos.length}.`;
      throw GatewayError.invalid(message, `${at}.videos`);
    }
    subjectImages.forEach((image, j) => checkVdImage(image, `${at}.images[${j}]`, undefined, urls));
    const maxSeconds = limits.videoMaxSeconds ?? undefined;
    const durationRule = `a subject's video is at most ${maxSeconds} s`;
    subjectVideos.forEach((video, j) => checkVdVideo(video, `${at}.videos[${j}]`, { maxSeconds, durationRule, urls }));
    // A subject with a video counts as a video subject, even when it also carries images.
    if (subjectVideos.length > 0) videoSubjects++;
    else imageSubjects++;
    videos += subjectVideos.length;
  });
  if (imageSubjects > limits.maxImageSubjects || videoSubjects > limits.maxVideoSubjects) {
    const allowed =
      `at most ${limits.maxImageSubjects} image subjects` +
      (limits.maxVideosPerSubject > 0 ? ` and ${limits.maxVideoSubjects} video subjects` : '');
    throw GatewayError.invalid(
      `subjects for '${rules.model}' allow ${allowed}; got ${imageSubjects} image and ${videoSubjects} video subjects.`,
      'subjects',
    );
  }
  return videos;
}

// ---- non-subject mode ------------------------------------------------------------------------------

function buildNonSubjectRequest(
  dto: VdNonSubjectModeRequestDto,
  rules: VdModelRules,
  modeRules: VdNonSubjectModeRules,
  random: () => number,
  urls: MediaUrlPolicy,
): VdCreateRequest {
  checkPrompt(dto.prompt, modeRules, 'non-subject');
  const videos = checkReferences(dto, rules, modeRules, urls);
  const values = applyCommonRules(dto, rules, modeRules, 'non-subject', random, urls);
  const bgm = dto.bgm ?? false;

  const upstreamBody: Record<string, unknown> = {
    model: dto.model,
    images: dto.images,
    ...(videos.length > 0 ? { videos } : {}),
    prompt: dto.prompt,
    // Only models with an audio switch in this mode get the field; the others would reject it.
    ...(modeRules.audio.supported ? { audio: values.audio } : {}),
    bgm,
    ...sharedUpstreamFields(values, dto),
  };
  const takesVideos = modeRules.references.maxVideos > 0;
  return {
    model: dto.model,
    mode: 'non-subject',
    upstreamBody,
    echo: echoOf(dto, values, dto.images, {
      // The caller's `bgm` is forwarded as sent; the echo says whether music is actually added.
      bgm: bgm && bgmTakesEffect(modeRules.bgm, values.duration),
      // Not a field of this mode; the echo shows the default, which applies while audio is on.
      audio_type: VD_LIMITS.audioTypeDefault,
      videos: takesVideos ? videos : undefined,
    }),
    snapshot: redactBase64(upstreamBody),
    billing: billingOf('non-subject', values, videos.length),
    ...(dto.callback_url ? { callbackUrl: dto.callback_url } : {}),
  };
}

/** Checks images and videos; returns the videos (an empty `videos` list counts as none). */
function checkReferences(
  dto: VdNonSubjectModeRequestDto,
  rules: VdModelRules,
  modeRules: VdNonSubjectModeRules,
  urls: MediaUrlPolicy,
): string[] {
  const limits = modeRules.references;
  const videos = dto.videos ?? [];
  if (videos.length > limits.maxVideos) {
    const message =
      limits.maxVideos === 0
        ? `videos are not supported by '${rules.model}'; video references need ${VIDEO_MODELS.join(', ')}.`
        : `videos holds at most ${limits.maxVideos} videos for '${rules.model}'; got ${videos.length}.`;
    throw GatewayError.invalid(message, 'videos');
  }
  const maxImages = maxImagesFor(limits, videos.length);
  if (dto.images.length < limits.minImages || dto.images.length > maxImages) {
    const withVideo = videos.length > 0 ? ' with video input' : '';
    throw GatewayError.invalid(
      `images must hold ${limits.minImages} to ${maxImages} images for '${rules.model}'${withVideo}; got ${dto.images.length}.`,
      'images',
    );
  }
  dto.images.forEach((image, j) => checkVdImage(image, `images[${j}]`, VD_LIMITS.nonSubjectImageMinSide, urls));
  // The longest each video may be depends on how many are sent (one of 8 s, or two of 5 s each).
  const maxSeconds = limits.videoMaxSeconds[videos.length - 1];
  const durationRule = `'${rules.model}' takes ${describeVideoLengths(limits.videoMaxSeconds)}`;
  videos.forEach((video, j) => checkVdVideo(video, `videos[${j}]`, { maxSeconds, durationRule, urls }));
  return videos;
}

// ---- billing, helpers ----------------------------------------------------------------------------

function billingOf(mode: VdMode, values: CommonValues, referenceVideos: number): VdCreateRequest['billing'] {
  return {
    kind: 'vd-r2v',
    mode,
    resolution: values.resolution,
    durationSeconds: values.duration,
    audio: values.audio,
    offPeak: values.off_peak,
    referenceVideos,
  };
}

/** `[8, 5]` -> "one video of at most 8 s or two of at most 5 s each". */
function describeVideoLengths(maxSeconds: readonly number[]): string {
  const counts = ['one video', 'two', 'three', 'four'];
  return maxSeconds
    .map((s, i) => (i === 0 ? `${counts[0]} of at most ${s} s` : `${counts[i] ?? i + 1} of at most ${s} s each`))
    .join(' or ');
}

function compact(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}
