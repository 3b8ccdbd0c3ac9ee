/**
 * kl editing-task rules: model, image counts per `edit_mode`, each image (URL or raw Base64,
 * decoded and probed; URL images also fetched in part, by `checkKlImageUrls`), prompt references,
 * duration against the session's source video, callback URL. Throws a 400 naming the field.
 */
import { GatewayError } from '../../../platform/errors';
import { validateDto } from '../../../platform/validation/validate-dto';
import {
  ImageLimits,
  MiB,
  base64DecodedLength,
  checkImageBytes,
  checkMediaUrl,
  imageTooLarge,
  isDataUrl,
  parseHttpUrl,
  redactBase64,
} from '../../common/media-probe';
import type { RemoteMediaProbe } from '../../common/media-probe-remote';
import { KL_EDITING_TASK_MODEL } from '../kl.ids';
import { KlEditUsage } from '../kl.pricing';
import { KlEditMode, KlEditingCreateDto } from './kl-editing.dto';

export const KL_IMAGE_LIMITS: ImageLimits = {
  formats: ['jpg', 'png'],
  minSide: 300,
  maxAspectRatio: 2.5,
  maxBytes: 10 * MiB,
  allowPngTransparency: true,
};

const IMAGE_COUNTS: Record<KlEditMode, { min: number; max: number; text: string }> = {
  addition: { min: 1, max: 2, text: '1 or 2 images' },
  swap: { min: 1, max: 1, text: 'exactly 1 image' },
  removal: { min: 0, max: 0, text: 'no images' },
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** One `image_list[i].image`: an http(s) URL, or Base64 with no data-URL prefix, checked by content. */
export function checkKlImage(value: string, param: string): void {
  if (isDataUrl(value))
    throw GatewayError.invalid(`${param} must be raw Base64 without a data-URL prefix (data:...;base64,).`, param);
  if (/^https?:/i.test(value)) {
    checkMediaUrl(value, ['jpg', 'jpeg', 'png'], param, 'image');
    return;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) parseHttpUrl(value, param); // another scheme: "must be an http(s) URL"
  const padding = value.length - value.replace(/=+$/, '').length;
  if (value.length === 0 || !BASE64.test(value) || value.length % 4 === 1 || (padding > 0 && value.length % 4 !== 0)) {
    throw GatewayError.invalid(`${param} must be an http(s) URL or Base64-encoded image data.`, param);
  }
  if (base64DecodedLength(value) > KL_IMAGE_LIMITS.maxBytes) throw imageTooLarge(param, KL_IMAGE_LIMITS.maxBytes);
  checkImageBytes(Buffer.from(value, 'base64'), KL_IMAGE_LIMITS, param);
}

/**
 * The images given by URL, checked like Base64 ones from their first bytes (format, size, pixels,
 * ratio; "reachable" is a rule of the field). In parallel; the first failing image by position is
 * the one named.
 */
export async function checkKlImageUrls(request: KlEditingRequest, probe: RemoteMediaProbe): Promise<void> {
  const checks = (request.dto.image_list ?? []).map((item, i) =>
    /^https?:/i.test(item.image)
      ? probe.checkImageUrl(item.image, KL_IMAGE_LIMITS, `image_list[${i}].image`)
      : Promise.resolve(),
  );
  for (const outcome of await Promise.allSettled(checks)) if (outcome.status === 'rejected') throw outcome.reason;
}

export interface KlEditingRequest {
  dto: KlEditingCreateDto;
  duration: '5' | '10';
  mode: 'std' | 'pro';
  billing: KlEditUsage;
}

/** Everything checkable from the body alone. The session (existence, expiry, duration fit) is checked by the service. */
export function validateKlEditingRequest(body: unknown): KlEditingRequest {
  const dto = validateDto(KlEditingCreateDto, body);
  checkEditingModel(dto);
  const images = dto.image_list ?? [];
  const count = IMAGE_COUNTS[dto.edit_mode];
  if (images.length < count.min || images.length > count.max) {
    throw GatewayError.invalid(
      `edit_mode ${dto.edit_mode} takes ${count.text} in image_list (got ${images.length}).`,
      'image_list',
    );
  }
  checkReferences(dto.prompt, images.length, 'prompt');
  // `null`, as for every optional field here, is not given.
  if (dto.negative_prompt != null) checkReferences(dto.negative_prompt, images.length, 'negative_prompt');
  if (dto.callback_url != null) parseHttpUrl(dto.callback_url, 'callback_url');
  images.forEach((item, i) => checkKlImage(item.image, `image_list[${i}].image`));
  const duration = String(dto.duration ?? '5') as '5' | '10';
  const mode = dto.mode ?? 'std';
  return { dto, duration, mode, billing: { kind: 'kl-edit', mode, durationSeconds: duration === '10' ? 10 : 5 } };
}

/**
 * The task endpoint takes only kl-v1-6 (the guard already resolved and authorised the name). A
 * field sent as `null` is not given, as the model selector reads it.
 */
function checkEditingModel(dto: KlEditingCreateDto): void {
  const param = dto.model_name != null ? 'model_name' : dto.model != null ? 'model' : null;
  const name = param ? (dto as unknown as Record<string, string>)[param] : KL_EDITING_TASK_MODEL;
  if (param && name !== KL_EDITING_TASK_MODEL) {
    throw GatewayError.invalid(`${param} must be ${KL_EDITING_TASK_MODEL} on the editing task endpoint.`, param);
  }
}

/** `<<<image_N>>>` must name one of the images given; `<<<video_N>>>` only the session's video (1). */
function checkReferences(text: string, imageCount: number, param: string): void {
  for (const match of text.matchAll(/<<<\s*(image|video)_(\d+)\s*>>>/gi)) {
    const kind = match[1].toLowerCase();
    const n = Number(match[2]);
    const available = kind === 'image' ? imageCount : 1;
    if (n < 1 || n > available) {
      const has =
        kind === 'image' ? `${imageCount} image${imageCount === 1 ? '' : 's'} given` : 'one video (the session)';
      throw GatewayError.invalid(
        `${param} refers to <<<${kind}_${n}>>> but there ${imageCount === 1 || kind === 'video' ? 'is' : 'are'} ${has}.`,
        param,
      );
    }
  }
}

/** The duration must fit the source video: 5 for 2-5 s, 10 for 7-10 s. */
export function checkDurationFits(duration: '5' | '10', originalDuration: number): void {
  const [min, max] = duration === '5' ? [2, 5] : [7, 10];
  if (originalDuration < min || originalDuration > max) {
    throw GatewayError.invalid(
      `duration ${duration} needs a source video of ${min} to ${max} s; the session's video lasts ${originalDuration} s.`,
      'duration',
    );
  }
}

/** The wire body (model and session replaced by what the upstream knows) and its Base64-free snapshot. */
export function klEditingUpstreamBody(
  request: KlEditingRequest,
  upstreamSessionId: string,
): { body: Record<string, unknown>; snapshot: Record<string, unknown> } {
  const { dto } = request;
  const body: Record<string, unknown> = {
    model_name: KL_EDITING_TASK_MODEL,
    session_id: upstreamSessionId,
    edit_mode: dto.edit_mode,
    prompt: dto.prompt,
    mode: request.mode,
    duration: request.duration,
  };
  if (dto.image_list?.length) body.image_list = dto.image_list.map((item) => ({ image: item.image }));
  if (dto.negative_prompt != null) body.negative_prompt = dto.negative_prompt;
  if (dto.watermark_info != null) body.watermark_info = { enabled: dto.watermark_info.enabled };
  return { body, snapshot: redactBase64(body, { bareBase64: true }) };
}
