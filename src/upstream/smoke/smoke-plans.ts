import type { UpstreamFamily, UpstreamTaskSnapshot } from '../upstream.types';
import {
  FieldExpectation,
  anyString,
  axTime,
  field,
  httpUrl,
  idLike,
  isoTime,
  nonEmptyString,
  numberLike,
  oneOf,
  ownerLike,
  unixMs,
} from './field-checks';
import { inlinePngDataUrl } from './inline-png';

type Env = Record<string, string | undefined>;

/** What a create sent, for expectations that echo it. */
export interface SentTask {
  /** Our `external_task_id` (family A), or undefined. */
  readonly reference?: string;
  /** The model name as it went upstream, after the channel's map. */
  readonly model?: string;
}

/** The cheapest task of one family, and what the gateway expects of each answer. */
export interface SmokePlan {
  readonly family: UpstreamFamily;
  readonly operation: string;
  readonly description: string;
  /** The create body in the gateway's wire shape, public model name included; or why it cannot be sent. */
  body(env: Env): { body: Record<string, unknown> } | { skip: string };
  created(sent: SentTask): FieldExpectation[];
  succeeded(sent: SentTask): FieldExpectation[];
  readonly failed: FieldExpectation[];
  /** The result's downloadable files, as the gateway reads them. */
  resultUrls(snapshot: UpstreamTaskSnapshot): string[];
  /** The normalised fields billing and presentation rely on, checked on success. */
  resultFields(snapshot: UpstreamTaskSnapshot): FieldExpectation[];
  /** Family A: the task can be found again by our `external_task_id` (unconfirmed creations depend on it). */
  readonly lookupByReference: boolean;
}

const imageFrom = (env: Env) => env.SMOKE_IMAGE_URL?.trim() || inlinePngDataUrl();

/** Family A: a custom voice (the cheapest task); it needs a clean 5-30 s voice sample at a public URL. */
const KL_PLAN: SmokePlan = {
  family: 'kl',
  operation: 'custom_voices',
  description: 'custom voice from SMOKE_KL_VOICE_URL',
  body: (env) => {
    const voiceUrl = env.SMOKE_KL_VOICE_URL?.trim();
    if (!voiceUrl)
      return {
        skip: 'set SMOKE_KL_VOICE_URL (a public .mp3/.wav with one clean voice, 5-30 s) to create a custom voice',
      };
    return { body: { voice_name: 'gateway smoke', voice_url: voiceUrl } };
  },
  created: (sent) => [
    field('code', oneOf(0)),
    field('request_id', nonEmptyString),
    field('data.task_id', idLike),
    field('data.task_status', oneOf('submitted')),
    field('data.task_info.external_task_id', oneOf(sent.reference)),
    field('data.created_at', unixMs),
    field('data.updated_at', unixMs),
  ],
  succeeded: (sent) => [
    field('data.task_status', oneOf('succeed')),
    field('data.task_status_msg', anyString, true),
    field('data.task_info.external_task_id', oneOf(sent.reference)),
    field('data.task_result.voices[0].voice_id', idLike),
    field('data.task_result.voices[0].voice_name', nonEmptyString),
    field('data.task_result.voices[0].trial_url', httpUrl),
    field('data.task_result.voices[0].owned_by', ownerLike),
    field('data.final_unit_deduction', numberLike, true),
    field('data.created_at', unixMs),
    field('data.updated_at', unixMs),
  ],
  failed: [field('data.task_status', oneOf('failed')), field('data.task_status_msg', nonEmptyString)],
  resultUrls: (snapshot) => snapshot.voices.flatMap((voice) => (voice.trialUrl ? [voice.trialUrl] : [])),
  resultFields: () => [field('voices[0].voiceId', nonEmptyString), field('voices[0].ownedBy', ownerLike)],
  lookupByReference: true,
};

/** Family B: wx2.6-r2v-flash, 720P, 2 s, silent, one reference image: the cheapest combination. */
const AX_PLAN: SmokePlan = {
  family: 'ax',
  operation: 'r2v',
  description: 'wx2.6-r2v-flash, 1280*720, 2 s, silent, one reference image',
  body: (env) => ({
    body: {
      model: 'wx2.6-r2v-flash',
      input: { prompt: 'character1 looks at the camera and smiles.', reference_urls: [imageFrom(env)] },
      parameters: { size: '1280*720', duration: 2, audio: false, watermark: false },
    },
  }),
  created: () => [
    field('request_id', nonEmptyString),
    field('output.task_id', nonEmptyString),
    field('output.task_status', oneOf('PENDING')),
  ],
  succeeded: () => [
    field('output.task_status', oneOf('SUCCEEDED')),
    field('output.video_url', httpUrl),
    field('output.submit_time', axTime),
    field('output.scheduled_time', axTime, true),
    field('output.end_time', axTime),
    field('usage.duration', numberLike),
    field('usage.output_video_duration', numberLike),
    field('usage.input_video_duration', numberLike, true),
    field('usage.video_count', numberLike, true),
  ],
  failed: [
    field('output.task_status', oneOf('FAILED', 'CANCELED')),
    field('output.code', nonEmptyString),
    field('output.message', nonEmptyString),
  ],
  resultUrls: (snapshot) => snapshot.videos.map((video) => video.url),
  // Billing charges output seconds: without them the gateway would charge the estimate.
  resultFields: () => [field('videos[0].url', httpUrl), field('videos[0].durationSeconds', numberLike)],
  lookupByReference: false,
};

/** Family C: vd2.0, 360p, 4 s, non-subject mode with one image: the cheapest combination. */
const VD_PLAN: SmokePlan = {
  family: 'vd',
  operation: 'reference2video',
  description: 'vd2.0, 360p, 4 s, one reference image',
  body: (env) => ({
    body: {
      model: 'vd2.0',
      prompt: 'The subject turns slowly towards the camera.',
      images: [imageFrom(env)],
      duration: 4,
      resolution: '360p',
    },
  }),
  created: (sent) => [
    field('task_id', idLike),
    field('state', oneOf('created')),
    field('model', oneOf(sent.model)),
    field('duration', oneOf(4)),
    field('resolution', oneOf('360p')),
    field('credits', numberLike),
    field('created_at', isoTime),
  ],
  succeeded: () => [
    field('id', idLike),
    field('state', oneOf('success')),
    field('err_code', oneOf('')),
    field('credits', numberLike),
    field('creations[0].id', idLike),
    field('creations[0].url', httpUrl),
    field('creations[0].cover_url', httpUrl),
    field('creations[0].watermarked_url', httpUrl, true),
  ],
  failed: [field('state', oneOf('failed')), field('err_code', nonEmptyString)],
  resultUrls: (snapshot) => snapshot.videos.map((video) => video.url),
  resultFields: () => [field('videos[0].url', httpUrl), field('videos[0].coverUrl', httpUrl)],
  lookupByReference: false,
};

export const SMOKE_PLANS: Readonly<Record<UpstreamFamily, SmokePlan>> = { kl: KL_PLAN, ax: AX_PLAN, vd: VD_PLAN };
