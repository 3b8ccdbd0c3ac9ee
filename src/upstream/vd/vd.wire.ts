/**
 * vd's wire shapes, as the vendor documents them: what the client sends and reads, and what
 * the built-in simulator answers (it imports these rather than keeping its own copy).
 */

/** The task's `state` word (created -> queueing -> processing -> success | failed). */
export type VdState = 'created' | 'queueing' | 'processing' | 'success' | 'failed';

/** The task fields a creation answer echoes: what was received, with the defaults filled in. */
export interface VdTaskFields {
  model: string;
  prompt: string;
  images: unknown[];
  videos?: unknown[];
  duration: number;
  seed: number;
  aspect_ratio: string;
  resolution: string;
  /** Whether music is actually added: false where `bgm` has no effect for the model, and in subject mode. */
  bgm: boolean;
  /** Whether joint audio-video output is on. */
  audio: boolean;
  /** The audio type parameter (default `all`); it only matters while `audio` is true. */
  audio_type: string;
  movement_amplitude: string;
  /** `''` when none was sent. */
  payload: string;
  off_peak: boolean;
  credits: number;
  watermark: boolean;
}

/** `POST /ent/v2/reference2video` answer. */
export interface VdCreatedAnswer extends VdTaskFields {
  task_id: string;
  state: VdState;
  /** ISO 8601. */
  created_at: string;
}

/** One produced video of a task. */
export interface VdCreation {
  id: string;
  url: string;
  cover_url: string;
  watermarked_url?: string;
  /** Output seconds, when sent. */
  duration?: number;
}

/** `GET /ent/v2/tasks/{id}/creations` answer (also the callback body). */
export interface VdCreationsAnswer {
  id: string;
  state: VdState;
  /** Empty unless the task failed. */
  err_code: string;
  credits: number;
  payload: string;
  creations: VdCreation[];
}
