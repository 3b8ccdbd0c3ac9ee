/**
 * vd (`/vd/ent/v2/reference2video`) per-model rules, as data keyed by the catalogue's model
 * names. The request validator reads this table; it holds no per-model branches of its own, so a
 * changed rule is a changed row here.
 */

export type VdMode = 'subject' | 'non-subject';
export const VD_MODES: readonly VdMode[] = ['subject', 'non-subject'];

/** Model series: several rules hold per series (`off_peak`, `bgm`, `movement_amplitude`). */
export type VdSeries = 'q3' | 'q2' | 'q1' | '2.0';

export type VdModelName = 'vdq3-mix' | 'vdq3-turbo' | 'vdq3' | 'vdq2-pro' | 'vdq2' | 'vdq1' | 'vd2.0';

export interface VdDurationRule {
  readonly default: number;
  readonly min: number;
  readonly max: number;
  /**
   * Whether `0` is accepted (and then means "the default"). Every model has a range
   * starting at 1 or more and says "0 not accepted" only for `vdq2-pro`; it never says what 0 would
   * mean elsewhere, so 0 is rejected for every model. The flag keeps that choice visible and
   * switchable per model.
   */
  readonly zeroAllowed: boolean;
}

export interface VdResolutionRule {
  readonly default: string;
  readonly allowed: readonly string[];
}

export interface VdAspectRatioRule {
  readonly default: string;
  /** `'any'`: any well-formed `W:H` ratio of positive integers (q2 models in subject mode). */
  readonly allowed: readonly string[] | 'any';
}

export interface VdAudioRule {
  /** false: the model has no audio switch in this mode; only `false` (or absence) is accepted. */
  readonly supported: boolean;
  readonly default: boolean;
}

/** When `off_peak: true` is accepted. */
export type VdOffPeakRule =
  | { readonly supported: false }
  /** Supported only while the effective `audio` equals `whenAudio` (`any`: with audio on or off). */
  | { readonly supported: true; readonly whenAudio: boolean | 'any' };

/** Whether a requested `bgm: true` actually adds music (for some models it has no effect). */
export type VdBgmRule =
  /** `bgm` is not a field of this mode (subject mode): sending it is an unknown field. */
  | { readonly field: false }
  | { readonly field: true; readonly effect: 'always' | 'never' }
  | { readonly field: true; readonly effect: 'unless-duration'; readonly noEffectDurations: readonly number[] };

export interface VdSubjectLimits {
  /** Subjects carrying images only (image/text subjects). */
  readonly maxImageSubjects: number;
  /** Subjects carrying a video (`vdq2-pro` only). */
  readonly maxVideoSubjects: number;
  readonly maxImagesPerSubject: number;
  /** 0: `subjects[].videos` is not accepted for the model. */
  readonly maxVideosPerSubject: number;
  /** The longest a subject's video may be, in seconds; null when videos are not accepted. */
  readonly videoMaxSeconds: number | null;
}

export interface VdReferenceLimits {
  readonly minImages: number;
  readonly maxImages: number;
  /** Image limit when the call also carries videos (`vdq2-pro`: 4). */
  readonly maxImagesWithVideo: number;
  /** 0: `videos` is not accepted for the model. */
  readonly maxVideos: number;
  /** Entry n-1: the longest each video may be, in seconds, when n videos are sent. */
  readonly videoMaxSeconds: readonly number[];
}

interface VdCommonModeRules {
  readonly duration: VdDurationRule;
  readonly resolution: VdResolutionRule;
  readonly aspectRatio: VdAspectRatioRule;
  readonly audio: VdAudioRule;
  readonly offPeak: VdOffPeakRule;
  readonly bgm: VdBgmRule;
  readonly promptMaxChars: number;
}

export interface VdSubjectModeRules extends VdCommonModeRules {
  readonly subjects: VdSubjectLimits;
}

export interface VdNonSubjectModeRules extends VdCommonModeRules {
  readonly references: VdReferenceLimits;
}

export interface VdModeRulesByMode {
  readonly subject: VdSubjectModeRules;
  readonly 'non-subject': VdNonSubjectModeRules;
}
export type VdModeRules = VdModeRulesByMode[VdMode];

export interface VdModelRules {
  readonly model: VdModelName;
  readonly series: VdSeries;
  /** A mode that is absent is not offered by the model (`vdq3-mix`: non-subject only). */
  readonly modes: Partial<VdModeRulesByMode>;
}

/** Limits that are the same for every model. */
export const VD_LIMITS = Object.freeze({
  payloadMaxChars: 1_048_576,
  wmPosition: { min: 1, max: 4, default: 3 },
  /** The common 31-bit range of the other families. */
  seed: { min: 0, max: 2_147_483_647 },
  imageFormats: ['png', 'jpeg', 'jpg', 'webp'] as readonly string[],
  videoFormats: ['mp4', 'avi', 'mov'] as readonly string[],
  /** "at least 128x128 pixels": stated for non-subject mode only. */
  nonSubjectImageMinSide: 128,
  /** "at most 100M", read as 100 MiB of decoded bytes. */
  videoMaxBytes: 100 * 1024 * 1024,
  /**
   * A "5-second video" may measure up to this much more in its container (encoder padding makes
   * real 5 s clips 5.02 to 5.07 s); past it the video is refused as too long.
   */
  videoOverrunSeconds: 0.25,
  audioTypes: ['all', 'speech_only', 'sound_effect_only'] as readonly string[],
  audioTypeDefault: 'all',
  /** `auto` and the upstream's three usual amplitudes. */
  movementAmplitudes: ['auto', 'small', 'medium', 'large'] as readonly string[],
  movementAmplitudeDefault: 'auto',
  /** Every ratio either mode names; the universe that rejection cases are drawn from. */
  knownAspectRatios: ['16:9', '9:16', '1:1', '4:3', '3:4'] as readonly string[],
  knownResolutions: ['360p', '540p', '720p', '1080p'] as readonly string[],
});

// ---- building blocks, each one stated rule ---------------------------------------------------

const range = (def: number, min: number, max: number): VdDurationRule => ({
  default: def,
  min,
  max,
  zeroAllowed: false,
});
const only = (value: number): VdDurationRule => range(value, value, value);
const res = (def: string, ...allowed: string[]): VdResolutionRule => ({ default: def, allowed });

const SUBJECT_RATIOS: VdAspectRatioRule = { default: '16:9', allowed: ['16:9', '9:16', '1:1'] };
const SUBJECT_ANY_RATIO: VdAspectRatioRule = { default: '16:9', allowed: 'any' };
const NON_SUBJECT_RATIOS: VdAspectRatioRule = { default: '16:9', allowed: ['16:9', '9:16', '1:1'] };
const NON_SUBJECT_Q2_RATIOS: VdAspectRatioRule = { default: '16:9', allowed: ['16:9', '9:16', '4:3', '3:4', '1:1'] };

// Subject mode: q3 models default to audio on, the others off; all may switch it.
const AUDIO_ON: VdAudioRule = { supported: true, default: true };
const AUDIO_OFF: VdAudioRule = { supported: true, default: false };
// Non-subject mode: "only q3 models support it in this mode; default true".
const NO_AUDIO: VdAudioRule = { supported: false, default: false };

// off_peak, subject mode: "q3 models support it when audio is true; q2, q1 and 2.0 series when audio is false".
const OFF_PEAK_WITH_AUDIO: VdOffPeakRule = { supported: true, whenAudio: true };
const OFF_PEAK_WITHOUT_AUDIO: VdOffPeakRule = { supported: true, whenAudio: false };
// off_peak, non-subject mode: "vdq3-mix does not support it", and no audio condition is stated.
const OFF_PEAK_ANY_AUDIO: VdOffPeakRule = { supported: true, whenAudio: 'any' };
const NO_OFF_PEAK: VdOffPeakRule = { supported: false };

const NO_BGM_FIELD: VdBgmRule = { field: false };
const BGM_NO_EFFECT: VdBgmRule = { field: true, effect: 'never' }; // q3 series
const BGM_Q2: VdBgmRule = { field: true, effect: 'unless-duration', noEffectDurations: [9, 10] };
const BGM: VdBgmRule = { field: true, effect: 'always' };

const SUBJECTS: VdSubjectLimits = {
  maxImageSubjects: 7,
  maxVideoSubjects: 0,
  maxImagesPerSubject: 3,
  maxVideosPerSubject: 0,
  videoMaxSeconds: null,
};
// vdq2-pro: 4 image/text subjects plus 2 video subjects, each with "one 5-second video".
const SUBJECTS_Q2_PRO: VdSubjectLimits = {
  maxImageSubjects: 4,
  maxVideoSubjects: 2,
  maxImagesPerSubject: 3,
  maxVideosPerSubject: 1,
  videoMaxSeconds: 5,
};

const REFS: VdReferenceLimits = {
  minImages: 1,
  maxImages: 7,
  maxImagesWithVideo: 7,
  maxVideos: 0,
  videoMaxSeconds: [],
};
// vdq2-pro: "at most one 8-second video or two 5-second videos"; 1 to 4 images with video input.
const REFS_Q2_PRO: VdReferenceLimits = {
  minImages: 1,
  maxImages: 7,
  maxImagesWithVideo: 4,
  maxVideos: 2,
  videoMaxSeconds: [8, 5],
};

const SUBJECT_PROMPT = 5000;
const NON_SUBJECT_PROMPT = 2000;

function subjectMode(
  rules: Omit<VdSubjectModeRules, 'bgm' | 'promptMaxChars' | 'subjects'> & { subjects?: VdSubjectLimits },
): VdSubjectModeRules {
  return { bgm: NO_BGM_FIELD, promptMaxChars: SUBJECT_PROMPT, subjects: SUBJECTS, ...rules };
}

function nonSubjectMode(
  rules: Omit<VdNonSubjectModeRules, 'promptMaxChars' | 'references'> & { references?: VdReferenceLimits },
): VdNonSubjectModeRules {
  return { promptMaxChars: NON_SUBJECT_PROMPT, references: REFS, ...rules };
}

// ---- the matrix ---------------------------------------------------------------------------------

export const VD_MODEL_RULES: Readonly<Record<VdModelName, VdModelRules>> = Object.freeze({
  'vdq3-mix': {
    model: 'vdq3-mix',
    series: 'q3',
    modes: {
      'non-subject': nonSubjectMode({
        duration: range(5, 3, 16),
        resolution: res('720p', '720p', '1080p'),
        aspectRatio: NON_SUBJECT_RATIOS,
        audio: AUDIO_ON,
        offPeak: NO_OFF_PEAK,
        bgm: BGM_NO_EFFECT,
      }),
    },
  },
  'vdq3-turbo': {
    model: 'vdq3-turbo',
    series: 'q3',
    modes: {
      subject: subjectMode({
        duration: range(5, 3, 16),
        resolution: res('720p', '540p', '720p', '1080p'),
        aspectRatio: SUBJECT_RATIOS,
        audio: AUDIO_ON,
        offPeak: OFF_PEAK_WITH_AUDIO,
      }),
      'non-subject': nonSubjectMode({
        duration: range(5, 3, 16),
        resolution: res('720p', '540p', '720p', '1080p'),
        aspectRatio: NON_SUBJECT_RATIOS,
        audio: AUDIO_ON,
        offPeak: OFF_PEAK_ANY_AUDIO,
        bgm: BGM_NO_EFFECT,
      }),
    },
  },
  vdq3: {
    model: 'vdq3',
    series: 'q3',
    modes: {
      subject: subjectMode({
        duration: range(5, 3, 16),
        resolution: res('720p', '540p', '720p', '1080p'),
        aspectRatio: SUBJECT_RATIOS,
        audio: AUDIO_ON,
        offPeak: OFF_PEAK_WITH_AUDIO,
      }),
      'non-subject': nonSubjectMode({
        duration: range(5, 3, 16),
        resolution: res('720p', '540p', '720p', '1080p'),
        aspectRatio: NON_SUBJECT_RATIOS,
        audio: AUDIO_ON,
        offPeak: OFF_PEAK_ANY_AUDIO,
        bgm: BGM_NO_EFFECT,
      }),
    },
  },
  'vdq2-pro': {
    model: 'vdq2-pro',
    series: 'q2',
    modes: {
      subject: subjectMode({
        duration: range(5, 1, 10),
        resolution: res('720p', '540p', '720p', '1080p'),
        aspectRatio: SUBJECT_ANY_RATIO,
        audio: AUDIO_OFF,
        offPeak: OFF_PEAK_WITHOUT_AUDIO,
        subjects: SUBJECTS_Q2_PRO,
      }),
      'non-subject': nonSubjectMode({
        duration: range(5, 1, 10),
        resolution: res('720p', '540p', '720p', '1080p'),
        aspectRatio: NON_SUBJECT_Q2_RATIOS,
        audio: NO_AUDIO,
        offPeak: OFF_PEAK_ANY_AUDIO,
        bgm: BGM_Q2,
        references: REFS_Q2_PRO,
      }),
    },
  },
  vdq2: {
    model: 'vdq2',
    series: 'q2',
    modes: {
      subject: subjectMode({
        duration: range(5, 1, 10),
        resolution: res('720p', '540p', '720p', '1080p'),
        aspectRatio: SUBJECT_ANY_RATIO,
        audio: AUDIO_OFF,
        offPeak: OFF_PEAK_WITHOUT_AUDIO,
      }),
      'non-subject': nonSubjectMode({
        duration: range(5, 1, 10),
        resolution: res('720p', '540p', '720p', '1080p'),
        aspectRatio: NON_SUBJECT_Q2_RATIOS,
        audio: NO_AUDIO,
        offPeak: OFF_PEAK_ANY_AUDIO,
        bgm: BGM_Q2,
      }),
    },
  },
  vdq1: {
    model: 'vdq1',
    series: 'q1',
    modes: {
      subject: subjectMode({
        duration: only(5),
        resolution: res('1080p', '1080p'),
        aspectRatio: SUBJECT_RATIOS,
        audio: AUDIO_OFF,
        offPeak: OFF_PEAK_WITHOUT_AUDIO,
      }),
      'non-subject': nonSubjectMode({
        duration: only(5),
        resolution: res('1080p', '1080p'),
        aspectRatio: NON_SUBJECT_RATIOS,
        audio: NO_AUDIO,
        offPeak: OFF_PEAK_ANY_AUDIO,
        bgm: BGM,
      }),
    },
  },
  'vd2.0': {
    model: 'vd2.0',
    series: '2.0',
    modes: {
      subject: subjectMode({
        duration: only(4),
        resolution: res('360p', '360p', '720p'),
        aspectRatio: SUBJECT_RATIOS,
        audio: AUDIO_OFF,
        offPeak: OFF_PEAK_WITHOUT_AUDIO,
      }),
      'non-subject': nonSubjectMode({
        duration: only(4),
        resolution: res('360p', '360p', '720p'),
        aspectRatio: NON_SUBJECT_RATIOS,
        audio: NO_AUDIO,
        offPeak: OFF_PEAK_ANY_AUDIO,
        bgm: BGM,
      }),
    },
  },
});

export const VD_MODEL_NAMES = Object.keys(VD_MODEL_RULES) as VdModelName[];

// ---- rule functions (pure; they read one row and answer one question) -----------------------------

export function vdModelRules(model: string): VdModelRules | undefined {
  return Object.prototype.hasOwnProperty.call(VD_MODEL_RULES, model) ? VD_MODEL_RULES[model as VdModelName] : undefined;
}

export function vdModesOf(rules: VdModelRules): VdMode[] {
  return VD_MODES.filter((mode) => rules.modes[mode] !== undefined);
}

export function durationAccepted(rule: VdDurationRule, value: number): boolean {
  if (value === 0) return rule.zeroAllowed;
  return Number.isInteger(value) && value >= rule.min && value <= rule.max;
}

/** The duration that will be used: the default when absent (or 0 where 0 is allowed). */
export function effectiveDuration(rule: VdDurationRule, requested: number | undefined): number {
  return requested === undefined || requested === 0 ? rule.default : requested;
}

const RATIO = /^([1-9]\d{0,3}):([1-9]\d{0,3})$/;

export function aspectRatioAccepted(rule: VdAspectRatioRule, value: string): boolean {
  return rule.allowed === 'any' ? RATIO.test(value) : rule.allowed.includes(value);
}

export function offPeakSupported(rule: VdOffPeakRule, audio: boolean): boolean {
  return rule.supported && (rule.whenAudio === 'any' || rule.whenAudio === audio);
}

/** Whether a requested `bgm: true` adds music for this duration. */
export function bgmTakesEffect(rule: VdBgmRule, duration: number): boolean {
  if (!rule.field) return false;
  if (rule.effect === 'unless-duration') return !rule.noEffectDurations.includes(duration);
  return rule.effect === 'always';
}

export function maxImagesFor(limits: VdReferenceLimits, videoCount: number): number {
  return videoCount > 0 ? limits.maxImagesWithVideo : limits.maxImages;
}
