/**
 * ax (`/ax/api/v1/services/aigc/video-generation/video-synthesis`) request rules as data,
 * keyed by the catalogue's model names. The validator reads these tables; a changed limit is a
 * changed row here, not a changed branch.
 */
import { ImageLimits, MiB, VideoLimits } from '../../common/media-probe';

export type AxProtocol = 'ax-r2v-new' | 'ax-r2v-old';
export type AxResolution = '720P' | '1080P';

export const AX_NEW_MODELS = ['wx2.7-r2v', 'wx2.7-r2v-2026-06-12'] as const;
export const AX_OLD_MODELS = ['wx2.6-r2v', 'wx2.6-r2v-flash'] as const;
export type AxModelName = (typeof AX_NEW_MODELS)[number] | (typeof AX_OLD_MODELS)[number];

export interface IntRange {
  readonly min: number;
  readonly max: number;
}

export interface AxModelRules {
  readonly protocol: AxProtocol;
  /** The `parameters.audio` switch: null when the model has none (sending it is a 400). */
  readonly audio: { readonly default: boolean } | null;
}

export const AX_MODEL_RULES: Readonly<Record<AxModelName, AxModelRules>> = Object.freeze({
  'wx2.7-r2v': { protocol: 'ax-r2v-new', audio: null },
  'wx2.7-r2v-2026-06-12': { protocol: 'ax-r2v-new', audio: null },
  'wx2.6-r2v': { protocol: 'ax-r2v-old', audio: null },
  // "silent output requires an explicit false"
  'wx2.6-r2v-flash': { protocol: 'ax-r2v-old', audio: { default: true } },
});

export function axModelRules(model: string): AxModelRules | undefined {
  return Object.prototype.hasOwnProperty.call(AX_MODEL_RULES, model) ? AX_MODEL_RULES[model as AxModelName] : undefined;
}

export const AX_SEED: IntRange = Object.freeze({ min: 0, max: 2147483647 });

// ---------------------------------------------------------------------------------------------
// Reference materials: images, videos, audio
// ---------------------------------------------------------------------------------------------

export const AX_IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'bmp', 'webp'] as const;
export const AX_VIDEO_EXTENSIONS = ['mp4', 'mov'] as const;
export const AX_AUDIO_EXTENSIONS = ['wav', 'mp3'] as const;

const AX_IMAGE_BASE: ImageLimits = {
  formats: ['jpg', 'png', 'bmp', 'webp'],
  minSide: 240,
  maxSide: 8000,
  // "20 MB" read as MiB, the unit upload limits are usually counted in.
  maxBytes: 20 * MiB,
  allowPngTransparency: false,
};

/** Inline (Base64) image limits per protocol; the ratio rule is the new protocol's only. */
export const AX_IMAGE_LIMITS: Readonly<Record<AxProtocol, ImageLimits>> = Object.freeze({
  'ax-r2v-new': { ...AX_IMAGE_BASE, maxAspectRatio: 8 },
  'ax-r2v-old': AX_IMAGE_BASE,
});

/** Inline videos exist only in the old protocol's `reference_urls` (`data:video/...`). */
export const AX_OLD_VIDEO_LIMITS: VideoLimits = Object.freeze<VideoLimits>({
  containers: ['mp4', 'mov'],
  maxBytes: 100 * MiB,
  minSeconds: 1,
  maxSeconds: 30,
});

// ---------------------------------------------------------------------------------------------
// New protocol (wx2.7-r2v, wx2.7-r2v-2026-06-12)
// ---------------------------------------------------------------------------------------------

export const AX_MEDIA_TYPES = ['reference_image', 'reference_video', 'first_frame'] as const;
export type AxMediaType = (typeof AX_MEDIA_TYPES)[number];
/** Whether a media type is an image (URL or data URL) or a video (URL only). */
export const AX_MEDIA_TYPE_KIND: Readonly<Record<AxMediaType, 'image' | 'video'>> = Object.freeze({
  reference_image: 'image',
  reference_video: 'video',
  first_frame: 'image',
});
/** Media types that carry a subject and so may carry a `reference_voice`. */
export const AX_VOICE_MEDIA_TYPES: readonly AxMediaType[] = ['reference_image', 'reference_video'];

export const AX_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4'] as const;
export const AX_RESOLUTIONS: readonly AxResolution[] = ['720P', '1080P'];

export const AX_NEW = Object.freeze({
  /** Longer prompts are accepted and cut to this many characters (the excess is truncated). */
  promptMaxChars: 5000,
  negativePromptMaxChars: 500,
  maxFirstFrames: 1,
  /** reference_image + reference_video items. */
  references: { min: 1, max: 5 } as IntRange,
  /** Widest range in the DTO; the video-dependent maximum is applied by the rules. */
  duration: { min: 2, max: 15 } as IntRange,
  durationWithVideo: { min: 2, max: 10 } as IntRange,
  defaults: { resolution: '1080P' as AxResolution, ratio: '16:9', duration: 5, prompt_extend: true, watermark: false },
  /** Old-protocol fields named in a new-protocol body. */
  foreignFields: { input: ['reference_urls', 'reference_video_urls'], parameters: ['size', 'shot_type', 'audio'] },
});

// ---------------------------------------------------------------------------------------------
// Old protocol (wx2.6-r2v, wx2.6-r2v-flash)
// ---------------------------------------------------------------------------------------------

/** The only accepted `parameters.size` values, each with its billing tier. */
export const AX_OLD_SIZES: Readonly<Record<string, { tier: AxResolution; ratio: string }>> = Object.freeze({
  '1280*720': { tier: '720P', ratio: '16:9' },
  '720*1280': { tier: '720P', ratio: '9:16' },
  '960*960': { tier: '720P', ratio: '1:1' },
  '1088*832': { tier: '720P', ratio: '4:3' },
  '832*1088': { tier: '720P', ratio: '3:4' },
  '1920*1080': { tier: '1080P', ratio: '16:9' },
  '1080*1920': { tier: '1080P', ratio: '9:16' },
  '1440*1440': { tier: '1080P', ratio: '1:1' },
  '1632*1248': { tier: '1080P', ratio: '4:3' },
  '1248*1632': { tier: '1080P', ratio: '3:4' },
});
export const AX_OLD_SIZE_VALUES = Object.keys(AX_OLD_SIZES);
export const AX_SHOT_TYPES = ['single', 'multi'] as const;

export const AX_OLD = Object.freeze({
  promptMaxChars: 1500,
  negativePromptMaxChars: 500,
  references: {
    images: { min: 0, max: 5 } as IntRange,
    videos: { min: 0, max: 3 } as IntRange,
    total: { min: 1, max: 5 } as IntRange,
  },
  duration: { min: 2, max: 10 } as IntRange,
  defaults: { size: '1920*1080', duration: 5, shot_type: 'single', watermark: false },
  /** New-protocol fields named in an old-protocol body. */
  foreignFields: { input: ['media'], parameters: ['resolution', 'ratio', 'prompt_extend'] },
  /** The native rejection of a body without (or with a misnamed) reference field. */
  missingReferences: { code: 'InvalidParameter', message: 'please provide reference_video_urls or reference_urls' },
  /**
   * Unknown `input` keys that look like an attempt at the reference field (`ref_urls`,
   * `reference_images`, `video_urls`...) get the native rejection; other unknown keys are plain
   * unknown fields.
   */
  inventedReferenceField: /ref|url|image|img|video|media|material|asset|file|pic|photo/i,
});

/** A video when the path ends in .mp4/.mov (any case) or a `data:video/` URL. */
export const AX_OLD_VIDEO_URL = /^data:video\//i;
