import { field, httpUrl, idLike, isoTime, nonEmptyString, numberLike, oneOf } from '../smoke/field-checks';
import { smokeImage, type SmokePlan } from '../smoke/smoke-plans';

/** vd: vd2.0, 360p, 4 s, non-subject mode with one image: the cheapest combination. */
export const VD_SMOKE_PLAN: SmokePlan = {
  family: 'vd',
  operation: 'reference2video',
  description: 'vd2.0, 360p, 4 s, one reference image',
  body: (env) => ({
    body: {
      model: 'vd2.0',
      prompt: 'The subject turns slowly towards the camera.',
      images: [smokeImage(env)],
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
