/**
 * vd media reference checks: vd's numbers applied through the shared
 * `media-probe.ts` (Base64 data URLs, image probing, URL extensions, redaction). Only this file
 * knows how vd calls the shared probe, so a change of that module's API stays here.
 *
 * What is and is not checked (vd references are never fetched: a create may carry up to 21
 * images, and the upstream fetches and judges them anyway):
 * - URLs: http(s) with a public host (`media-url-policy.ts`); when the last path segment has an
 *   extension, it must be an allowed format. A URL without an extension is accepted (its format is
 *   unknown without fetching). Pixel sizes, file sizes and video durations behind URLs are NOT
 *   checked; the upstream does.
 * - Base64 images: must carry the `data:image/<type>;base64,` prefix; the declared type must be
 *   allowed, the bytes must be a readable image of that same format, and (non-subject mode) at
 *   least 128x128 pixels. No byte cap beyond the request body limit.
 * - Base64 videos: `data:video/<type>;base64,` of an allowed type (mp4, mov, avi), well-formed
 *   Base64, decoded size within 100 MiB, and the decoded bytes a readable video of the container
 *   the type names (MP4/MOV by their movie header, AVI by its RIFF header), as images are checked,
 *   and its duration (movie header, AVI main header) at most `maxSeconds` when the caller gives one.
 */
import { GatewayError } from '../../../platform/errors';
import {
  ImageLimits,
  VideoContainer,
  base64Placeholder,
  checkImageDataUrl,
  checkVideoDataUrl,
  isDataUrl,
  parseHttpUrl,
  redactBase64,
} from '../../common/media-probe';
import { MediaUrlPolicy, PUBLIC_MEDIA_URLS, checkPublicMediaUrl } from '../../common/media-url-policy';
import { VD_LIMITS } from './vd-model-rules';

export { base64Placeholder, redactBase64 };

/** A checked reference: a URL or a Base64 payload (described, never kept decoded). */
export type VdMediaRef = { kind: 'url'; url: string } | { kind: 'base64'; mime: string; byteLength: number };

/** `jpeg` and `jpg` are one format; the shared probe names it `jpg` (image-size's name). */
const VD_IMAGE_PROBE_FORMATS = ['png', 'jpg', 'webp'];

/** vd's video formats are the shared probe's container names. */
const VD_VIDEO_CONTAINERS = VD_LIMITS.videoFormats as readonly VideoContainer[];

function imageLimits(minSide: number): ImageLimits {
  return {
    formats: VD_IMAGE_PROBE_FORMATS,
    minSide,
    maxBytes: Number.POSITIVE_INFINITY,
    allowPngTransparency: true,
  };
}

function requirePrefix(param: string, example: string): never {
  throw GatewayError.invalid(
    `${param} must be an http(s) URL or Base64 with its content-type prefix (${example}).`,
    param,
  );
}

/** Checks one image reference; throws a 400 naming `param`. `minSide` applies to Base64 images. */
export function checkVdImage(
  value: unknown,
  param: string,
  minSide = 1,
  urls: MediaUrlPolicy = PUBLIC_MEDIA_URLS,
): VdMediaRef {
  if (typeof value !== 'string') throw GatewayError.invalid(`${param} must be a string.`, param);
  if (isDataUrl(value)) {
    const image = checkImageDataUrl(value, imageLimits(minSide), param);
    return { kind: 'base64', mime: image.mime, byteLength: image.byteLength };
  }
  if (!/^https?:/i.test(value)) requirePrefix(param, 'data:image/png;base64,...');
  checkPublicMediaUrl(value, VD_LIMITS.imageFormats, param, 'image', urls);
  return { kind: 'url', url: value };
}

export interface VdVideoCheck {
  /** The longest a Base64 video may be; omitted: not checked. */
  maxSeconds?: number;
  /** The rule behind `maxSeconds`, for the message. */
  durationRule?: string;
  urls?: MediaUrlPolicy;
  /** For tests only. */
  maxBytes?: number;
}

/** Checks one video reference; throws a 400 naming `param`. */
export function checkVdVideo(value: unknown, param: string, check: VdVideoCheck = {}): VdMediaRef {
  if (typeof value !== 'string') throw GatewayError.invalid(`${param} must be a string.`, param);
  if (isDataUrl(value)) {
    const { maxSeconds, durationRule, maxBytes = VD_LIMITS.videoMaxBytes } = check;
    const video = checkVideoDataUrl(
      value,
      {
        containers: VD_VIDEO_CONTAINERS,
        maxBytes,
        maxSeconds,
        durationRule,
        overrunSeconds: VD_LIMITS.videoOverrunSeconds,
      },
      param,
    );
    return { kind: 'base64', mime: video.mime, byteLength: video.byteLength };
  }
  if (!/^https?:/i.test(value)) requirePrefix(param, 'data:video/mp4;base64,...');
  checkPublicMediaUrl(value, VD_LIMITS.videoFormats, param, 'video', check.urls ?? PUBLIC_MEDIA_URLS);
  return { kind: 'url', url: value };
}

/** http(s) URL with a host, parsed as the shared probe (and the callback sender) parse it. */
export function isHttpUrl(value: string): boolean {
  try {
    parseHttpUrl(value, '');
    return true;
  } catch {
    return false;
  }
}
