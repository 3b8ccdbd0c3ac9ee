import { arrayField, asRecord, numberField, stringField } from '../body-fields';

/** Seconds each reference video counts as input towards `usage.duration`. */
export const INPUT_SECONDS_PER_REFERENCE_VIDEO = 5;

export interface AxUsagePlan {
  inputSeconds: number;
  outputSeconds: number;
  /** Output resolution tier, e.g. 720 or 1080. */
  sr: number;
  inputVideoCount: number;
}

/**
 * What the native `usage` will report. Like the real service, `duration` counts the reference
 * videos' seconds as well as the output's, so it differs from the requested output seconds.
 */
export function planUsage(body: Record<string, unknown> | undefined): AxUsagePlan {
  const input = asRecord(body?.input);
  const parameters = asRecord(body?.parameters);
  const inputVideoCount = countReferenceVideos(input);
  return {
    inputSeconds: inputVideoCount * INPUT_SECONDS_PER_REFERENCE_VIDEO,
    outputSeconds: numberField(parameters, 'duration') ?? 5,
    sr: resolutionTier(parameters),
    inputVideoCount,
  };
}

function countReferenceVideos(input: Record<string, unknown> | undefined): number {
  const media = arrayField(input, 'media');
  if (media) return media.filter((item) => asRecord(item)?.type === 'reference_video').length;
  const urls = [...(arrayField(input, 'reference_urls') ?? []), ...(arrayField(input, 'reference_video_urls') ?? [])];
  return urls.filter((url) => typeof url === 'string' && isVideoUrl(url)).length;
}

/** A reference is a video when the path ends in .mp4/.mov (any case) or it is a `data:video/` URL. */
export function isVideoUrl(url: string): boolean {
  if (/^data:video\//i.test(url)) return true;
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // Not an absolute URL: judge the text as it is.
  }
  return /\.(mp4|mov)$/i.test(path);
}

function resolutionTier(parameters: Record<string, unknown> | undefined): number {
  const resolution = stringField(parameters, 'resolution');
  if (resolution) return resolution.toUpperCase() === '720P' ? 720 : 1080;
  const size = /^(\d+)\*(\d+)$/.exec(stringField(parameters, 'size') ?? '');
  if (size) return Math.max(Number(size[1]), Number(size[2])) <= 1280 ? 720 : 1080;
  return 1080;
}
