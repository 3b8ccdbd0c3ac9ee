import {
  anyString,
  field,
  httpUrl,
  idLike,
  nonEmptyString,
  numberLike,
  oneOf,
  ownerLike,
  unixMs,
} from '../smoke/field-checks';
import { checkFields } from '../smoke/field-checks';
import { describeError } from '../smoke/smoke-family';
import type { SmokePlan } from '../smoke/smoke-plans';
import type { SmokeRow } from '../smoke/smoke-types';
import type { UpstreamChannel, UpstreamTaskClient } from '../upstream.types';
import { KL_PATHS } from './kl.api';
import { KlClient } from './kl.client';

/** kl: a custom voice (the cheapest task); it needs a clean 5-30 s voice sample at a public URL. */
export const KL_SMOKE_PLAN: SmokePlan = {
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
  referenceField: 'external_task_id',
  checkAuth: checkKlAuth,
};

/** kl: the free preset-voice list proves the credentials and shows official voices as `kl`. */
async function checkKlAuth(channel: UpstreamChannel, client: UpstreamTaskClient): Promise<SmokeRow[]> {
  try {
    if (!(client instanceof KlClient)) throw new Error('the kl smoke check needs the kl client');
    const data = await client.call(channel, 'GET', KL_PATHS.presetsVoices, { pageNum: 1, pageSize: 1 });
    const officialOwner = { ...oneOf('kl'), expected: '"kl" (the upstream’s "kling", relabelled)' };
    return [
      {
        family: 'kl',
        step: 'auth',
        field: 'GET presets-voices',
        seen: 'answered',
        expected: 'accepted credentials',
        verdict: 'ok',
      },
      ...checkFields('kl', 'auth', { presets: data }, [
        field('presets[0].task_result.voices[0].owned_by', officialOwner),
      ]),
    ];
  } catch (error) {
    return [
      {
        family: 'kl',
        step: 'auth',
        field: 'GET presets-voices',
        seen: describeError(error),
        expected: 'accepted credentials',
        verdict: 'MISMATCH',
      },
    ];
  }
}
