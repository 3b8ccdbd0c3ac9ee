import type { TaskEntity } from '../tasks/entities/task.entity';
import type { ResultLinks } from './result-links';

/**
 * The one place presenters get a result URL from. The results module installs the signer at
 * start when results are kept (`RESULT_STORE` fs or s3); until then, and with `off`, the
 * upstream's own URL is passed through. A module-level hook because presenters are plain
 * functions of the task record, called from many answers (queries, lists, callbacks).
 */
let links: ResultLinks | undefined;

/** Installs `next`; with `next` undefined, uninstalls `current` if it is still the one installed. */
export function installResultLinks(next: ResultLinks | undefined, current?: ResultLinks): void {
  if (next || links === current) links = next;
}

/** The URL a client sees for one file of a task: the gateway's signed URL, or `upstreamUrl` as it is. */
export function resultUrl(task: Pick<TaskEntity, 'id'>, slot: string, upstreamUrl: string | undefined): string {
  if (!upstreamUrl) return '';
  return links ? links.url(task.id, slot) : upstreamUrl;
}

/**
 * The URL of a file a source renews (`RenewableLinks`): the gateway's, naming `source` and `key`,
 * or `upstreamUrl` as it is when results are not served by the gateway.
 */
export function renewableUrl(source: string, key: string, upstreamUrl: string): string {
  if (!upstreamUrl) return upstreamUrl;
  return links ? links.renewableUrl(source, key) : upstreamUrl;
}

/** A session preview's URL: the gateway's (streamed from the upstream, never kept), or `upstreamUrl` as it is. */
export function previewUrl(upstreamUrl: string): string {
  if (!upstreamUrl) return upstreamUrl;
  return links ? links.previewUrl(upstreamUrl) : upstreamUrl;
}

/** Every URL-valued string field of a native preview object under gateway URLs; other fields as they are. */
export function previewUrls<T>(value: T): T {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, typeof v === 'string' && /^https?:\/\//.test(v) ? previewUrl(v) : v]),
  ) as T;
}
