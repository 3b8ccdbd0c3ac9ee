import { randomInt } from 'node:crypto';
import { arrayField, asRecord, booleanField, numberField, stringField } from '../body-fields';
import type { VdTaskFields } from '../../upstream/vd/vd.wire';
import { simModelName } from '../sim-models';
import { VD_SIM_MODELS } from './vd-models';

interface ModelDefaults {
  duration: number;
  resolution: string;
  audio: boolean;
}

/** The vendor's per-model defaults, by public name (a vendor name is looked up through its public one). */
const MODEL_DEFAULTS: Record<string, ModelDefaults> = {
  'vdq3-mix': { duration: 5, resolution: '720p', audio: true },
  'vdq3-turbo': { duration: 5, resolution: '720p', audio: true },
  vdq3: { duration: 5, resolution: '720p', audio: true },
  'vdq2-pro': { duration: 5, resolution: '720p', audio: false },
  vdq2: { duration: 5, resolution: '720p', audio: false },
  vdq1: { duration: 5, resolution: '1080p', audio: false },
  'vd2.0': { duration: 4, resolution: '360p', audio: false },
};
const COMMON_DEFAULTS: ModelDefaults = { duration: 5, resolution: '720p', audio: false };

/** Native credits per output second, by resolution (informational figures only). */
const CREDITS_PER_SECOND: Record<string, number> = { '360p': 1, '540p': 2, '720p': 3, '1080p': 5 };

/** The task fields a creation answer echoes: what was received, with the defaults filled in. */
export function taskFieldsOf(rawBody: unknown): VdTaskFields {
  const body = asRecord(rawBody);
  const model = stringField(body, 'model') ?? '';
  const defaults = MODEL_DEFAULTS[simModelName(VD_SIM_MODELS, model) ?? model] ?? COMMON_DEFAULTS;
  const duration = numberField(body, 'duration') ?? defaults.duration;
  const resolution = stringField(body, 'resolution') ?? defaults.resolution;
  const audio = booleanField(body, 'audio') ?? defaults.audio;
  const offPeak = booleanField(body, 'off_peak') ?? false;
  const seed = numberField(body, 'seed');
  const videos = arrayField(body, 'videos');
  return {
    model,
    prompt: stringField(body, 'prompt') ?? '',
    images: arrayField(body, 'images') ?? [],
    ...(videos ? { videos } : {}),
    duration,
    // "random when absent or 0", as the real service does.
    seed: seed && Number.isInteger(seed) ? seed : randomInt(1, 2_147_483_647),
    aspect_ratio: stringField(body, 'aspect_ratio') ?? '16:9',
    resolution,
    bgm: booleanField(body, 'bgm') ?? false,
    audio,
    audio_type: stringField(body, 'audio_type') ?? 'all',
    movement_amplitude: stringField(body, 'movement_amplitude') ?? 'auto',
    payload: stringField(body, 'payload') ?? '',
    off_peak: offPeak,
    credits: credits(duration, resolution, audio, offPeak),
    watermark: booleanField(body, 'watermark') ?? false,
  };
}

function credits(duration: number, resolution: string, audio: boolean, offPeak: boolean): number {
  const perSecond = (CREDITS_PER_SECOND[resolution.toLowerCase()] ?? 3) + (audio ? 1 : 0);
  const full = Math.max(1, Math.round(duration)) * perSecond;
  return offPeak ? Math.ceil(full / 2) : full;
}
