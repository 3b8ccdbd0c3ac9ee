import { asArray, asRecord, isRecord } from '../http/lenient';
import { KL_PATHS, type KlCallPath } from './kl.api';

/** What the upstream writes in `owned_by` for its official voices, and what callers are shown instead. */
export const KL_UPSTREAM_OFFICIAL_OWNER = 'kling';
export const KL_OFFICIAL_OWNER = 'kl';

/** `owned_by` as callers see it: the official library is `kl`; a creator ID passes as it is. */
export function klVoiceOwner(owner: string | undefined): string | undefined {
  return owner?.trim().toLowerCase() === KL_UPSTREAM_OFFICIAL_OWNER ? KL_OFFICIAL_OWNER : owner;
}

/**
 * The `data` of a non-task call, made ready for callers: the preset voice list gets the official
 * owner relabelled; every other call's data passes as received.
 */
export function klCallData(path: KlCallPath, data: unknown): unknown {
  if (path !== KL_PATHS.presetsVoices || !Array.isArray(data)) return data;
  return data.map((item) => {
    if (!isRecord(item)) return item;
    const result = asRecord(item.task_result);
    if (!Array.isArray(result.voices)) return item;
    const voices = asArray(result.voices).map((voice) =>
      isRecord(voice) && typeof voice.owned_by === 'string'
        ? { ...voice, owned_by: klVoiceOwner(voice.owned_by) }
        : voice,
    );
    return { ...item, task_result: { ...result, voices } };
  });
}
