import { axTime, field, httpUrl, nonEmptyString, numberLike, oneOf } from '../smoke/field-checks';
import { smokeImage, type SmokePlan } from '../smoke/smoke-plans';

/** ax: wx2.6-r2v-flash, 720P, 2 s, silent, one reference image: the cheapest combination. */
export const AX_SMOKE_PLAN: SmokePlan = {
  family: 'ax',
  operation: 'r2v',
  description: 'wx2.6-r2v-flash, 1280*720, 2 s, silent, one reference image',
  body: (env) => ({
    body: {
      model: 'wx2.6-r2v-flash',
      input: { prompt: 'character1 looks at the camera and smiles.', reference_urls: [smokeImage(env)] },
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
