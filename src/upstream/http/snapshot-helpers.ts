import type { UpstreamTaskSnapshot, UpstreamTaskState, UpstreamVideo } from '../upstream.types';
import { asArray, asNonEmptyString, asNumber, asPercent, asRecord, asString, withoutUndefined } from './lenient';

/** A status table as data: native status word -> normalised state. */
export type StatusTable = ReadonlyMap<string, UpstreamTaskState>;

/** Looks a native status up after `normalise` (case folding); missing or unlisted words are `unknown`, never an error. */
export function mapStatus(
  table: StatusTable,
  nativeStatus: string | undefined,
  normalise: (word: string) => string,
): UpstreamTaskState {
  if (nativeStatus === undefined) return 'unknown';
  return table.get(normalise(nativeStatus.trim())) ?? 'unknown';
}

/** Progress when the upstream sends one; otherwise what the state implies (0 while queued, 100 once done). */
export function progressFor(state: UpstreamTaskState, nativeProgress: unknown): number | undefined {
  const explicit = asPercent(nativeProgress);
  if (state === 'succeeded') return 100;
  if (explicit !== undefined) return explicit;
  return state === 'queued' ? 0 : undefined;
}

/** The snapshot for a payload that could not be read at all: never terminal, so the worker keeps polling. */
export function unreadableSnapshot(raw: unknown, nativeStatus = ''): UpstreamTaskSnapshot {
  return { state: 'unknown', nativeStatus, videos: [], voices: [], raw };
}

/**
 * A list of video entries `{id, url, cover_url, <watermarkField>, duration}` -> videos; an entry without
 * a URL is left out. The vendors differ only in the watermarked copy's field name.
 */
export function readVideos(list: unknown, watermarkField: string): UpstreamVideo[] {
  return asArray(list)
    .map((item) => readVideo(asRecord(item), watermarkField))
    .filter((video): video is UpstreamVideo => video !== undefined);
}

function readVideo(entry: Record<string, unknown>, watermarkField: string): UpstreamVideo | undefined {
  const url = asNonEmptyString(entry.url);
  if (!url) return undefined;
  return withoutUndefined({
    id: asString(entry.id),
    url,
    coverUrl: asNonEmptyString(entry.cover_url),
    watermarkUrl: asNonEmptyString(entry[watermarkField]),
    durationSeconds: asNumber(entry.duration),
  });
}
