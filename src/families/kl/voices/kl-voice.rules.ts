import { checkMediaUrl } from '../../common/media-probe';
import { GatewayError } from '../../../platform/errors';
import { validateDto } from '../../../platform/validation/validate-dto';
import { parseResultId } from '../tasks/kl-result-ids';
import { KL_VOICE_EXTENSIONS, KlCreateVoiceDto, KlDeleteVoiceDto } from './kl-voice.dto';

/** Where the voice comes from: a URL as given, or one of this account's editing results. */
export type KlVoiceSource = { kind: 'url'; url: string } | { kind: 'video'; taskId: string; index: number };

export interface KlVoiceCreateRequest {
  dto: KlCreateVoiceDto;
  source: KlVoiceSource;
}

/**
 * Every rule of `POST /kl/v1/general/custom-voices` that needs no lookup, before any upstream call
 * or charge. Exactly one of `voice_url` and `video_id`: neither names `voice_url`, both name `video_id`.
 * A `video_id` that is not a gateway video ID is 404 (it cannot be this account's video).
 */
export function validateKlVoiceCreate(body: unknown): KlVoiceCreateRequest {
  const dto = validateDto(KlCreateVoiceDto, body);
  const hasUrl = dto.voice_url !== undefined;
  const hasVideo = dto.video_id !== undefined;
  if (!hasUrl && !hasVideo) throw GatewayError.invalid('One of voice_url and video_id is required.', 'voice_url');
  if (hasUrl && hasVideo) throw GatewayError.invalid('Give only one of voice_url and video_id, not both.', 'video_id');
  if (hasUrl) {
    checkMediaUrl(dto.voice_url as string, KL_VOICE_EXTENSIONS, 'voice_url', 'voice file');
    return { dto, source: { kind: 'url', url: dto.voice_url as string } };
  }
  const ref = parseResultId('video', dto.video_id as string);
  if (!ref) throw videoNotFound();
  return { dto, source: { kind: 'video', ...ref } };
}

export function validateKlVoiceDelete(body: unknown): KlDeleteVoiceDto {
  return validateDto(KlDeleteVoiceDto, body);
}

export function videoNotFound(): GatewayError {
  return new GatewayError(404, 'not_found', 'Video not found.', 'video_id');
}

// ---------------------------------------------------------------------------------------------
// Query parameters of the lists (SPEC.md endpoint 8, shared by 11; and 12)
// ---------------------------------------------------------------------------------------------

export const KL_PAGE_MAX = 500;
export const KL_TASK_IDS_MAX = 100;

export interface KlListQuery {
  page: number;
  pageSize: number;
  model?: string;
  ids?: string[];
}

type RawQuery = Record<string, unknown>;

/** `pageNum`, `pageSize` (1..500), `filter.model`, `filter.task_ids` (repeatable, at most 100); anything else is 400. */
export function parseKlListQuery(raw: RawQuery): KlListQuery {
  const query = flattenFilter(raw);
  rejectUnknown(query, ['pageNum', 'pageSize', 'filter.model', 'filter.task_ids']);
  const model = single(query, 'filter.model');
  const ids = query['filter.task_ids'];
  let taskIds: string[] | undefined;
  if (ids !== undefined) {
    taskIds = (Array.isArray(ids) ? ids : [ids]).map((id) => {
      if (typeof id !== 'string' || id === '') throw GatewayError.invalid('filter.task_ids must be task IDs.', 'filter.task_ids');
      return id;
    });
    if (taskIds.length > KL_TASK_IDS_MAX) throw GatewayError.invalid(`filter.task_ids takes at most ${KL_TASK_IDS_MAX} IDs.`, 'filter.task_ids');
  }
  return {
    ...parsePage(query),
    ...(model !== undefined && model !== '' ? { model } : {}),
    ...(taskIds ? { ids: taskIds } : {}),
  };
}

/** `pageNum` (default 1) and `pageSize` (default 20), integers from 1 to 500; nothing else. */
export function parseKlPresetsQuery(raw: RawQuery): { page: number; pageSize: number } {
  rejectUnknown(raw, ['pageNum', 'pageSize']);
  return parsePage(raw);
}

function parsePage(query: RawQuery): { page: number; pageSize: number } {
  return { page: pageNumber(query, 'pageNum', 1), pageSize: pageNumber(query, 'pageSize', 20) };
}

function pageNumber(query: RawQuery, name: string, fallback: number): number {
  const value = single(query, name);
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > KL_PAGE_MAX) {
    throw GatewayError.invalid(`${name} must be an integer from 1 to ${KL_PAGE_MAX}.`, name);
  }
  return Number(value);
}

function single(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw GatewayError.invalid(`${name} must be given once.`, name);
  return value;
}

function rejectUnknown(query: RawQuery, known: string[]): void {
  const unknown = Object.keys(query).find((key) => !known.includes(key));
  if (unknown) throw GatewayError.invalid(`Unknown query parameter '${unknown}'.`, unknown);
}

/** An extended query parser turns `filter.model` into `{filter: {model}}`; both forms read the same. */
function flattenFilter(raw: RawQuery): RawQuery {
  const { filter, ...rest } = raw;
  if (filter === undefined) return rest;
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) throw GatewayError.invalid("Unknown query parameter 'filter'.", 'filter');
  const out: RawQuery = { ...rest };
  for (const [key, value] of Object.entries(filter as RawQuery)) out[`filter.${key}`] = value;
  return out;
}
