import { SAMPLE_PNG_BASE64, SAMPLE_PNG_SIZE } from '../assets';
import { arrayField, asRecord, nonEmptyString } from '../body-fields';
import { assetUrl } from '../family';
import { SimAnswer } from '../http/sim-answer';
import { numericId } from '../ids';
import { markerRefusal, readMarkers } from '../markers';
import { KL_ERRORS, klOk } from './kl-envelope';

const SESSION_VALIDITY_MS = 24 * 60 * 60 * 1000;
const MAX_MARKED_FRAMES = 10;
const MAX_POINTS_PER_FRAME = 10;
/** Every simulated source video is 1280x720 at 30 fps; `sim:long` makes it 10 s instead of 5 s. */
const VIDEO = { fps: 30, width: 1280, height: 720 } as const;

interface Point {
  x: number;
  y: number;
}

export interface KlSession {
  readonly sessionId: string;
  readonly expiresAt: number;
  readonly totalFrames: number;
  /** frame_index -> the points marked on it, in the order added. */
  readonly frames: Map<number, Point[]>;
}

/** kl editing sessions: init, add/delete/clear marks, preview. */
export class KlSessions {
  private readonly sessions = new Map<string, KlSession>();

  constructor(private readonly baseUrl: string) {}

  /** For editing-task creation, which needs a live session. */
  find(sessionId: string): KlSession | undefined {
    const session = this.sessions.get(sessionId);
    return session && session.expiresAt > Date.now() ? session : undefined;
  }

  init(rawBody: unknown): SimAnswer {
    const body = asRecord(rawBody);
    const videoId = nonEmptyString(body, 'video_id');
    const videoUrl = nonEmptyString(body, 'video_url');
    const markers = readMarkers(videoUrl, videoId);
    const refusal = markerRefusal(markers, KL_ERRORS);
    if (refusal) return refusal;
    if (!videoId === !videoUrl) return KL_ERRORS.badRequest('exactly one of video_id and video_url is required');

    const seconds = markers.has('long') ? 10 : 5;
    const totalFrames = seconds * VIDEO.fps;
    if (markers.has('fail')) {
      // Recognition refused: the envelope succeeds but `status` is non-zero and no session exists.
      return klOk({
        status: 1,
        session_id: '',
        final_unit_deduction: '0',
        fps: 0,
        original_duration: 0,
        width: 0,
        height: 0,
        total_frame: 0,
        normalized_video: '',
      });
    }
    const session: KlSession = {
      sessionId: numericId(19),
      expiresAt: Date.now() + SESSION_VALIDITY_MS,
      totalFrames,
      frames: new Map(),
    };
    this.sessions.set(session.sessionId, session);
    return klOk({
      status: 0,
      session_id: session.sessionId,
      final_unit_deduction: '0',
      fps: VIDEO.fps,
      original_duration: seconds,
      width: VIDEO.width,
      height: VIDEO.height,
      total_frame: totalFrames,
      normalized_video: assetUrl(this.baseUrl, 'sample.mp4', { session_id: session.sessionId }),
    });
  }

  addSelection(rawBody: unknown): SimAnswer {
    const parsed = this.parseSelection(rawBody);
    if ('refusal' in parsed) return parsed.refusal;
    const { session, frameIndex, points } = parsed;
    const marked = session.frames.get(frameIndex) ?? [];
    if (marked.length === 0 && session.frames.size >= MAX_MARKED_FRAMES) {
      return KL_ERRORS.badRequest(`at most ${MAX_MARKED_FRAMES} marked frames per session`);
    }
    const added = points.filter((point) => !marked.some((m) => samePoint(m, point)));
    if (marked.length + added.length > MAX_POINTS_PER_FRAME) {
      return KL_ERRORS.badRequest(`at most ${MAX_POINTS_PER_FRAME} points per frame`);
    }
    session.frames.set(frameIndex, [...marked, ...added]);
    return this.maskAnswer(session, frameIndex);
  }

  deleteSelection(rawBody: unknown): SimAnswer {
    const parsed = this.parseSelection(rawBody);
    if ('refusal' in parsed) return parsed.refusal;
    const { session, frameIndex, points } = parsed;
    const marked = session.frames.get(frameIndex);
    if (!marked) return KL_ERRORS.badRequest(`frame ${frameIndex} has no selection`);
    // Like the real service: points are removed only by their exact coordinates as added.
    if (!points.every((point) => marked.some((m) => samePoint(m, point)))) {
      return KL_ERRORS.badRequest('points must match exactly the points used when the selection was added');
    }
    const remaining = marked.filter((m) => !points.some((point) => samePoint(m, point)));
    if (remaining.length === 0) session.frames.delete(frameIndex);
    else session.frames.set(frameIndex, remaining);
    return this.maskAnswer(session, frameIndex);
  }

  clearSelection(rawBody: unknown): SimAnswer {
    const found = this.sessionOf(asRecord(rawBody));
    if ('refusal' in found) return found.refusal;
    found.session.frames.clear();
    return klOk({ status: 0, session_id: found.session.sessionId, final_unit_deduction: '0' });
  }

  previewSelection(rawBody: unknown): SimAnswer {
    const found = this.sessionOf(asRecord(rawBody));
    if ('refusal' in found) return found.refusal;
    const { session } = found;
    if (session.frames.size === 0) return KL_ERRORS.badRequest('no selection to preview');
    const tag = { session_id: session.sessionId, preview: String(Date.now()) };
    return klOk({
      status: 0,
      session_id: session.sessionId,
      final_unit_deduction: '0',
      res: {
        video: assetUrl(this.baseUrl, 'sample.mp4', tag),
        video_cover: assetUrl(this.baseUrl, 'sample.png', tag),
        tracking_output: assetUrl(this.baseUrl, 'sample.png', { ...tag, tracking: '1' }),
      },
    });
  }

  private sessionOf(body: Record<string, unknown> | undefined): { session: KlSession } | { refusal: SimAnswer } {
    const sessionId = nonEmptyString(body, 'session_id');
    if (!sessionId) return { refusal: KL_ERRORS.badRequest('session_id is required') };
    const session = this.sessions.get(sessionId);
    if (!session) return { refusal: KL_ERRORS.notFound(`session ${sessionId} not found`) };
    if (session.expiresAt <= Date.now()) return { refusal: KL_ERRORS.badRequest(`session ${sessionId} has expired`) };
    return { session };
  }

  private parseSelection(
    rawBody: unknown,
  ): { session: KlSession; frameIndex: number; points: Point[] } | { refusal: SimAnswer } {
    const body = asRecord(rawBody);
    const found = this.sessionOf(body);
    if ('refusal' in found) return found;
    const frameIndex = body?.frame_index;
    if (
      typeof frameIndex !== 'number' ||
      !Number.isInteger(frameIndex) ||
      frameIndex < 0 ||
      frameIndex >= found.session.totalFrames
    ) {
      return {
        refusal: KL_ERRORS.badRequest(`frame_index must be an integer from 0 to ${found.session.totalFrames - 1}`),
      };
    }
    const rawPoints = arrayField(body, 'points');
    if (!rawPoints || rawPoints.length === 0 || rawPoints.length > MAX_POINTS_PER_FRAME) {
      return { refusal: KL_ERRORS.badRequest(`points must hold 1 to ${MAX_POINTS_PER_FRAME} points`) };
    }
    const points: Point[] = [];
    for (const raw of rawPoints) {
      const point = asRecord(raw);
      const { x, y } = point ?? {};
      if (!isUnitNumber(x) || !isUnitNumber(y))
        return { refusal: KL_ERRORS.badRequest('points[].x and points[].y must be numbers from 0 to 1') };
      points.push({ x, y });
    }
    return { session: found.session, frameIndex, points };
  }

  /** One mask object per marked frame; an unmarked frame answers an empty list. */
  private maskAnswer(session: KlSession, frameIndex: number): SimAnswer {
    const points = session.frames.get(frameIndex) ?? [];
    const masks =
      points.length === 0
        ? []
        : [
            {
              object_id: 1,
              rle_mask: { size: [VIDEO.height, VIDEO.width], counts: fakeRle(points.length) },
              png_mask: { size: [...SAMPLE_PNG_SIZE], base64: SAMPLE_PNG_BASE64 },
            },
          ];
    return klOk({
      status: 0,
      session_id: session.sessionId,
      final_unit_deduction: '0',
      res: { frame_index: frameIndex, rle_mask_list: masks },
    });
  }
}

function isUnitNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;
}

function samePoint(a: Point, b: Point): boolean {
  return a.x === b.x && a.y === b.y;
}

/** A COCO-style compressed RLE string; the content is not meaningful, only its shape. */
function fakeRle(pointCount: number): string {
  return `PPYo0${'2N1O0'.repeat(pointCount)}0O1N2_gP`;
}
