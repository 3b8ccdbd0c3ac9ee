import { MediaUrlPolicy, PUBLIC_MEDIA_URLS, checkPublicMediaUrl } from '../../common/media-url-policy';
import { GatewayError } from '../../../platform/errors';
import { validateDto } from '../../../platform/validation/validate-dto';
import { klNotFound } from '../kl.errors';
import { parseResultId } from '../tasks/kl-result-ids';
import { parsePageQuery } from '../tasks/kl-task-list';
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
export function validateKlVoiceCreate(body: unknown, urls: MediaUrlPolicy = PUBLIC_MEDIA_URLS): KlVoiceCreateRequest {
  const dto = validateDto(KlCreateVoiceDto, body);
  const hasUrl = dto.voice_url !== undefined;
  const hasVideo = dto.video_id !== undefined;
  if (!hasUrl && !hasVideo) throw GatewayError.invalid('One of voice_url and video_id is required.', 'voice_url');
  if (hasUrl && hasVideo) throw GatewayError.invalid('Give only one of voice_url and video_id, not both.', 'video_id');
  if (hasUrl) {
    checkPublicMediaUrl(dto.voice_url as string, KL_VOICE_EXTENSIONS, 'voice_url', 'voice file', urls);
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
  return klNotFound('video_id');
}

// ---------------------------------------------------------------------------------------------
// Query parameters of the preset voice list
// ---------------------------------------------------------------------------------------------

/** The preset voices take `pageNum` and `pageSize` only. */
export const parseKlPresetsQuery = parsePageQuery;
