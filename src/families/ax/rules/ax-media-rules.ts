/**
 * ax reference-material rules: counting per protocol, then checking each reference (http(s)
 * URL with an allowed extension where it has one, or an inline Base64 payload probed for format,
 * pixels and size). Counts are checked before any payload is decoded, so an over-long list is
 * rejected cheaply.
 *
 * Remote references (URLs) are checked for scheme, a public host (`media-url-policy.ts`) and
 * extension only: their size, duration and pixels would need a fetch, which the gateway does not
 * do; the upstream rejects what it cannot use.
 */
import { GatewayError } from '../../../platform/errors';
import {
  AX_AUDIO_EXTENSIONS,
  AX_IMAGE_EXTENSIONS,
  AX_IMAGE_LIMITS,
  AX_MEDIA_TYPE_KIND,
  AX_NEW,
  AX_OLD,
  AX_OLD_VIDEO_LIMITS,
  AX_OLD_VIDEO_URL,
  AX_VIDEO_EXTENSIONS,
  AX_VOICE_MEDIA_TYPES,
  AxMediaType,
  AxProtocol,
  IntRange,
} from './ax-model-rules';
import { checkImageDataUrl, checkVideoDataUrl, isDataUrl, urlPathExtension } from '../../common/media-probe';
import { MediaUrlPolicy, PUBLIC_MEDIA_URLS, checkPublicMediaUrl } from '../../common/media-url-policy';

export interface AxReferenceCounts {
  referenceImages: number;
  referenceVideos: number;
  firstFrames: number;
}

/** An image reference: http(s) URL (public host, extension checked where present) or an image data URL. */
export function checkAxImageReference(
  value: string,
  protocol: AxProtocol,
  param: string,
  urls: MediaUrlPolicy = PUBLIC_MEDIA_URLS,
): void {
  if (isDataUrl(value)) checkImageDataUrl(value, AX_IMAGE_LIMITS[protocol], param);
  else checkPublicMediaUrl(value, AX_IMAGE_EXTENSIONS, param, 'image', urls);
}

function outside(n: number, range: IntRange): boolean {
  return n < range.min || n > range.max;
}

// ---------------------------------------------------------------------------------------------
// New protocol: input.media[]
// ---------------------------------------------------------------------------------------------

export interface AxMediaItem {
  type: AxMediaType;
  url: string;
  reference_voice?: string | null;
}

/** Counts `input.media` by type and applies the count limits (param `input.media`). */
export function countAxNewMedia(media: readonly AxMediaItem[], param = 'input.media'): AxReferenceCounts {
  const counts: AxReferenceCounts = { referenceImages: 0, referenceVideos: 0, firstFrames: 0 };
  for (const item of media) {
    if (item.type === 'reference_image') counts.referenceImages++;
    else if (item.type === 'reference_video') counts.referenceVideos++;
    else counts.firstFrames++;
  }
  if (counts.firstFrames > AX_NEW.maxFirstFrames) {
    throw GatewayError.invalid(`${param} may hold at most ${AX_NEW.maxFirstFrames} first_frame item.`, param);
  }
  const references = counts.referenceImages + counts.referenceVideos;
  if (outside(references, AX_NEW.references)) {
    throw GatewayError.invalid(
      `${param} must hold ${AX_NEW.references.min} to ${AX_NEW.references.max} reference_image/reference_video items in total (got ${references}).`,
      param,
    );
  }
  return counts;
}

/** Checks each item's `url` by its type's kind, and its `reference_voice`. */
export function checkAxNewMediaItems(
  media: readonly AxMediaItem[],
  param = 'input.media',
  urls: MediaUrlPolicy = PUBLIC_MEDIA_URLS,
): void {
  media.forEach((item, i) => {
    const urlParam = `${param}[${i}].url`;
    if (AX_MEDIA_TYPE_KIND[item.type] === 'image') {
      checkAxImageReference(item.url, 'ax-r2v-new', urlParam, urls);
    } else {
      // Videos are remote only in the new protocol (public HTTP(S) URLs).
      if (isDataUrl(item.url))
        throw GatewayError.invalid(`${urlParam}: a ${item.type} must be an http(s) URL, not inline data.`, urlParam);
      checkPublicMediaUrl(item.url, AX_VIDEO_EXTENSIONS, urlParam, 'video', urls);
    }
    if (item.reference_voice != null) {
      const voiceParam = `${param}[${i}].reference_voice`;
      if (!AX_VOICE_MEDIA_TYPES.includes(item.type)) {
        throw GatewayError.invalid(
          `${voiceParam} is only accepted on ${AX_VOICE_MEDIA_TYPES.join(' and ')} items.`,
          voiceParam,
        );
      }
      if (isDataUrl(item.reference_voice))
        throw GatewayError.invalid(`${voiceParam} must be an http(s) URL, not inline data.`, voiceParam);
      checkPublicMediaUrl(item.reference_voice, AX_AUDIO_EXTENSIONS, voiceParam, 'audio', urls);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Old protocol: input.reference_urls[]
// ---------------------------------------------------------------------------------------------

/** A video when its path ends in .mp4/.mov (any case) or it is a `data:video/` URL. */
export function axOldReferenceKind(value: string): 'image' | 'video' {
  if (isDataUrl(value)) return AX_OLD_VIDEO_URL.test(value) ? 'video' : 'image';
  let ext: string | null = null;
  try {
    ext = urlPathExtension(value);
  } catch {
    // not a URL: counted as an image, then rejected by the per-item check
  }
  return ext !== null && (AX_VIDEO_EXTENSIONS as readonly string[]).includes(ext) ? 'video' : 'image';
}

/**
 * Checks `reference_urls` (or the deprecated `reference_video_urls`, whose path `param` then
 * names): element types, counts, then each reference.
 */
export function checkAxOldReferences(
  refs: readonly unknown[],
  param: string,
  hosts: MediaUrlPolicy = PUBLIC_MEDIA_URLS,
): AxReferenceCounts {
  refs.forEach((ref, i) => {
    if (typeof ref !== 'string' || ref.length === 0) {
      throw GatewayError.invalid(`${param}[${i}] must be a non-empty string (URL or data URL).`, `${param}[${i}]`);
    }
  });
  const urls = refs as readonly string[];
  const kinds = urls.map(axOldReferenceKind);
  const images = kinds.filter((k) => k === 'image').length;
  const videos = kinds.length - images;
  const limits = AX_OLD.references;
  if (outside(images, limits.images)) {
    throw GatewayError.invalid(
      `${param} may hold at most ${limits.images.max} reference images (got ${images}).`,
      param,
    );
  }
  if (outside(videos, limits.videos)) {
    throw GatewayError.invalid(
      `${param} may hold at most ${limits.videos.max} reference videos (got ${videos}).`,
      param,
    );
  }
  if (outside(urls.length, limits.total)) {
    throw GatewayError.invalid(
      `${param} must hold ${limits.total.min} to ${limits.total.max} references, images and videos together (got ${urls.length}).`,
      param,
    );
  }
  urls.forEach((url, i) => {
    const itemParam = `${param}[${i}]`;
    if (kinds[i] === 'image') checkAxImageReference(url, 'ax-r2v-old', itemParam, hosts);
    else if (isDataUrl(url)) checkVideoDataUrl(url, AX_OLD_VIDEO_LIMITS, itemParam);
    else checkPublicMediaUrl(url, AX_VIDEO_EXTENSIONS, itemParam, 'video', hosts);
  });
  return { referenceImages: images, referenceVideos: videos, firstFrames: 0 };
}
