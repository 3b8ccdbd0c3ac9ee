/**
 * kl session rules that are pure functions of the request and the stored record: the init
 * source, the source-video limits (checked on what the upstream's init answer reports), and the
 * mark arithmetic of add/delete (frame range, 10 frames per session, 10 points per frame, exact
 * points on delete). Each throws a 400 naming the field.
 */
import { GatewayError } from '../../../platform/errors';
import { MediaUrlPolicy, PUBLIC_MEDIA_URLS, checkPublicMediaUrl } from '../../common/media-url-policy';
import { KL_MAX_MARKED_FRAMES, KL_MAX_POINTS_PER_FRAME } from './kl-session.dto';
import { KlMarks, KlPoint } from './kl-session.entity';

export type KlInitSource = { kind: 'video_id'; videoId: string } | { kind: 'video_url'; videoUrl: string };

const present = (value: string | undefined): value is string => value !== undefined && value !== null && value !== '';

/**
 * Exactly one of `video_id` / `video_url`; a URL must be http(s) with a public host (unless `urls`
 * allows others), `.mp4`/`.mov` where the path has an extension.
 */
export function initSource(
  body: { video_id?: string; video_url?: string },
  urls: MediaUrlPolicy = PUBLIC_MEDIA_URLS,
): KlInitSource {
  const hasId = present(body.video_id);
  const hasUrl = present(body.video_url);
  if (hasId && hasUrl) throw GatewayError.invalid('Give exactly one of video_id and video_url, not both.', 'video_id');
  if (!hasId && !hasUrl) throw GatewayError.invalid('One of video_id and video_url is required.', 'video_url');
  if (hasId) return { kind: 'video_id', videoId: body.video_id as string };
  checkPublicMediaUrl(body.video_url as string, ['mp4', 'mov'], 'video_url', 'video', urls);
  return { kind: 'video_url', videoUrl: body.video_url as string };
}

export interface KlParsedVideo {
  fps: number;
  originalDuration: number;
  width: number;
  height: number;
  totalFrame: number;
}

export const KL_VIDEO_RULES = {
  durations: [
    [2, 5],
    [7, 10],
  ] as const,
  minSide: 720,
  maxSide: 2160,
  fps: [24, 30, 60] as const,
};

/** The source-video limits of init-selection, on the upstream's parse of the video. */
export function checkParsedVideo(video: KlParsedVideo, param: string): void {
  const d = video.originalDuration;
  if (!KL_VIDEO_RULES.durations.some(([min, max]) => d >= min && d <= max)) {
    throw GatewayError.invalid(`${param}: the video lasts ${d} s; it must last 2 to 5 s or 7 to 10 s.`, param);
  }
  for (const [side, value] of [
    ['width', video.width],
    ['height', video.height],
  ] as const) {
    if (!(value >= KL_VIDEO_RULES.minSide && value <= KL_VIDEO_RULES.maxSide)) {
      throw GatewayError.invalid(
        `${param}: the video ${side} is ${value} px; it must be ${KL_VIDEO_RULES.minSide} to ${KL_VIDEO_RULES.maxSide} px.`,
        param,
      );
    }
  }
  // A nominal rate: 29.97 is "30 fps" to the upstream, 25 is not.
  if (!KL_VIDEO_RULES.fps.some((fps) => Math.abs(video.fps - fps) <= 0.1)) {
    throw GatewayError.invalid(`${param}: the video has ${video.fps} fps; it must have 24, 30 or 60 fps.`, param);
  }
  if (!(Number.isInteger(video.totalFrame) && video.totalFrame > 0)) {
    throw GatewayError.invalid(`${param}: the upstream could not read the video's frames.`, param);
  }
}

function samePoint(a: KlPoint, b: KlPoint): boolean {
  return a.x === b.x && a.y === b.y;
}

export function checkFrameIndex(frameIndex: number, totalFrame: number): void {
  if (frameIndex < 0 || frameIndex >= totalFrame) {
    throw GatewayError.invalid(
      `frame_index must be from 0 to ${totalFrame - 1} (the video has ${totalFrame} frames).`,
      'frame_index',
    );
  }
}

/** The marks after adding `points` on `frameIndex` (already-marked points count once), or a 400. */
export function addMarks(marks: KlMarks, frameIndex: number, points: KlPoint[]): { marks: KlMarks; added: KlPoint[] } {
  const key = String(frameIndex);
  const existing = marks[key] ?? [];
  if (existing.length === 0 && Object.keys(marks).length >= KL_MAX_MARKED_FRAMES) {
    throw GatewayError.invalid(
      `The session already has ${KL_MAX_MARKED_FRAMES} marked frames; delete or clear one first.`,
      'frame_index',
    );
  }
  const added: KlPoint[] = [];
  for (const p of points) {
    if (!existing.some((m) => samePoint(m, p)) && !added.some((m) => samePoint(m, p))) added.push({ x: p.x, y: p.y });
  }
  if (existing.length + added.length > KL_MAX_POINTS_PER_FRAME) {
    throw GatewayError.invalid(
      `A frame holds at most ${KL_MAX_POINTS_PER_FRAME} points; frame ${frameIndex} has ${existing.length}.`,
      'points',
    );
  }
  return { marks: { ...marks, [key]: [...existing, ...added] }, added };
}

/** The marks after deleting exactly `points` (each must be one that was added on that frame), or a 400. */
export function deleteMarks(marks: KlMarks, frameIndex: number, points: KlPoint[]): KlMarks {
  const key = String(frameIndex);
  const existing = marks[key] ?? [];
  if (!points.every((p) => existing.some((m) => samePoint(m, p)))) {
    throw GatewayError.invalid(`points must be exactly points added on frame ${frameIndex}.`, 'points');
  }
  const remaining = existing.filter((m) => !points.some((p) => samePoint(m, p)));
  const next = { ...marks };
  if (remaining.length === 0) delete next[key];
  else next[key] = remaining;
  return next;
}
