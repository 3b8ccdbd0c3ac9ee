/**
 * ax create-request validation (`POST /ax/api/v1/services/aigc/video-generation/video-synthesis`):
 * turns an untrusted JSON body into the upstream wire body with defaults applied, a Base64-free
 * snapshot for storage and logs, and the billable facts. Pure: no I/O, no DI. Throws a 400
 * GatewayError naming the first offending field by its path, so a bad request never reaches the
 * upstream.
 *
 * Order of checks (the first violation wins): body shape -> model -> fields of the other protocol
 * -> (old protocol) the native missing-reference rejection -> DTO shapes/types/ranges/unknown
 * fields -> reference counts -> cross-field rules -> per-reference content (Base64 decoding last,
 * being the expensive part).
 */
import { shownModelName } from '../../../core/accounts/guards/model-access.guard';
import { AxBillableUsage } from '../ax.pricing';
import { checkAxNewMediaItems, checkAxOldReferences, countAxNewMedia } from '../rules/ax-media-rules';
import { AX_NEW, AX_OLD, AX_OLD_SIZES, AxModelRules, AxProtocol, axModelRules } from '../rules/ax-model-rules';
import { redactBase64 } from '../../common/media-probe';
import { MediaUrlPolicy, PUBLIC_MEDIA_URLS } from '../../common/media-url-policy';
import { GatewayError } from '../../../platform/errors';
import { validateDto } from '../../../platform/validation/validate-dto';
import { AxNewCreateBodyDto, AxOldCreateBodyDto } from './ax-create.dto';
import { truncateChars, withinChars } from '../../common/text-rules';

export interface AxUpstreamBody {
  model: string;
  input: Record<string, unknown>;
  parameters: Record<string, unknown>;
}

export interface AxCreateRequest {
  /** Public model name. */
  model: string;
  protocol: AxProtocol;
  /** Native wire body with defaults applied; the deprecated `reference_video_urls` renamed to `reference_urls`. */
  upstreamBody: AxUpstreamBody;
  /** `upstreamBody` with every Base64 payload replaced by `[base64 image/png 1234 bytes]`. */
  snapshot: Record<string, unknown>;
  billing: AxBillableUsage;
  /** The body used `input.reference_video_urls`: the controller adds a `Deprecation` header. */
  usedDeprecatedField: boolean;
  /** New protocol: the prompt was longer than 5000 characters and was cut to 5000. */
  promptTruncated: boolean;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function has(obj: Json, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** Present with a value: `null` counts as absent, as it does for every optional field. */
function given(obj: Json, key: string): boolean {
  return has(obj, key) && obj[key] !== null && obj[key] !== undefined;
}

/** Copies only the fields that were given, so an explicit `null` never reaches the upstream. */
function defined(fields: Json): Json {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
}

/** `urls`: which hosts media URLs may name; default: public ones only. */
export function validateAxCreateRequest(body: unknown, urls: MediaUrlPolicy = PUBLIC_MEDIA_URLS): AxCreateRequest {
  if (!isObject(body)) throw GatewayError.invalid('The request body must be a JSON object.');
  const { model, rules } = resolveModel(body);
  rejectForeignFields(body, rules.protocol);
  return rules.protocol === 'ax-r2v-new' ? validateNew(body, model, urls) : validateOld(body, model, rules, urls);
}

/**
 * The guard has already matched the model against the catalogue and the account; this is the
 * defensive repeat. A model of another family is "not found" on this endpoint, as the upstream
 * would answer.
 */
function resolveModel(body: Json): { model: string; rules: AxModelRules } {
  const model = body.model;
  if (model === undefined || model === null || model === '') throw GatewayError.invalid('model is required.', 'model');
  if (typeof model !== 'string') throw GatewayError.invalid('model must be a string.', 'model');
  const rules = axModelRules(model);
  if (!rules) throw GatewayError.modelNotFound(shownModelName(model), 'model');
  return { model, rules };
}

/** A field of the other protocol gets a message saying so, rather than a bare "unknown field". */
function rejectForeignFields(body: Json, protocol: AxProtocol): void {
  const foreign = protocol === 'ax-r2v-new' ? AX_NEW.foreignFields : AX_OLD.foreignFields;
  const other =
    protocol === 'ax-r2v-new'
      ? 'old protocol (wx2.6-r2v, wx2.6-r2v-flash)'
      : 'new protocol (wx2.7-r2v, wx2.7-r2v-2026-06-12)';
  for (const section of ['input', 'parameters'] as const) {
    const part = body[section];
    if (!isObject(part)) continue;
    for (const key of foreign[section]) {
      if (has(part, key)) {
        const param = `${section}.${key}`;
        throw GatewayError.invalid(
          `${param} belongs to the ${other}; model '${String(body.model)}' does not accept it.`,
          param,
        );
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// New protocol
// ---------------------------------------------------------------------------------------------

function validateNew(body: Json, model: string, urls: MediaUrlPolicy): AxCreateRequest {
  const dto = validateDto(AxNewCreateBodyDto, body);
  const { input } = dto;
  const p = dto.parameters ?? {};
  const counts = countAxNewMedia(input.media);

  const durationRange = counts.referenceVideos > 0 ? AX_NEW.durationWithVideo : AX_NEW.duration;
  const duration = p.duration ?? AX_NEW.defaults.duration;
  if (duration < durationRange.min || duration > durationRange.max) {
    const when = counts.referenceVideos > 0 ? 'when the references include a video' : 'without reference videos';
    throw GatewayError.invalid(
      `parameters.duration must be ${durationRange.min} to ${durationRange.max} seconds ${when}.`,
      'parameters.duration',
    );
  }
  checkAxNewMediaItems(input.media, 'input.media', urls);

  // Longer text is truncated, not refused. Cut here so the stored body is what the upstream got.
  const promptTruncated = !withinChars(input.prompt, AX_NEW.promptMaxChars);
  const prompt = promptTruncated ? truncateChars(input.prompt, AX_NEW.promptMaxChars) : input.prompt;
  const resolution = p.resolution ?? AX_NEW.defaults.resolution;

  const upstreamBody: AxUpstreamBody = {
    model,
    input: defined({
      prompt,
      negative_prompt: input.negative_prompt,
      media: input.media.map((m) => defined({ type: m.type, url: m.url, reference_voice: m.reference_voice })),
    }),
    parameters: defined({
      resolution,
      ratio: p.ratio ?? AX_NEW.defaults.ratio,
      duration,
      prompt_extend: p.prompt_extend ?? AX_NEW.defaults.prompt_extend,
      watermark: p.watermark ?? AX_NEW.defaults.watermark,
      seed: p.seed,
    }),
  };
  return {
    model,
    protocol: 'ax-r2v-new',
    upstreamBody,
    snapshot: redactBase64(upstreamBody) as unknown as Json,
    billing: {
      kind: 'ax-r2v',
      resolution,
      durationSeconds: duration,
      // A first_frame is an input frame, not a reference material (only those are counted).
      referenceImages: counts.referenceImages,
      referenceVideos: counts.referenceVideos,
      audio: null,
    },
    usedDeprecatedField: false,
    promptTruncated,
  };
}

// ---------------------------------------------------------------------------------------------
// Old protocol
// ---------------------------------------------------------------------------------------------

const OLD_INPUT_FIELDS = new Set(['prompt', 'negative_prompt', 'reference_urls', 'reference_video_urls']);

function nativeMissingReferences(): GatewayError {
  const { code, message } = AX_OLD.missingReferences;
  return GatewayError.invalid(message, 'input.reference_urls', { native: { code, message } });
}

/**
 * The upstream's own rejection, kept for native clients: neither `reference_urls`
 * nor `reference_video_urls` (absent, null or empty), or an invented reference field name.
 * Sending both is a plain 400.
 */
function checkReferenceFieldNames(input: Json): void {
  const invented = Object.keys(input).find((k) => !OLD_INPUT_FIELDS.has(k) && AX_OLD.inventedReferenceField.test(k));
  if (invented !== undefined) throw nativeMissingReferences();
  const current = given(input, 'reference_urls');
  const deprecated = given(input, 'reference_video_urls');
  // An empty list provides no reference either: the upstream's own words.
  if (!current && !deprecated) throw nativeMissingReferences();
  if (!current && isEmptyList(input.reference_video_urls)) throw nativeMissingReferences();
  if (!deprecated && isEmptyList(input.reference_urls)) throw nativeMissingReferences();
  if (current && deprecated) {
    throw GatewayError.invalid(
      'Send input.reference_urls only; input.reference_video_urls is its deprecated name and may not be sent as well.',
      'input.reference_video_urls',
    );
  }
}

function isEmptyList(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}

function validateOld(body: Json, model: string, rules: AxModelRules, urls: MediaUrlPolicy): AxCreateRequest {
  // No `input` at all carries no reference either: the native rejection, as for an empty one.
  if (body.input === undefined || body.input === null) throw nativeMissingReferences();
  if (isObject(body.input)) checkReferenceFieldNames(body.input);
  const dto = validateDto(AxOldCreateBodyDto, body);
  const { input } = dto;
  const p = dto.parameters ?? {};

  const usedDeprecatedField = input.reference_urls == null;
  const refsParam = usedDeprecatedField ? 'input.reference_video_urls' : 'input.reference_urls';
  const refs = (usedDeprecatedField ? input.reference_video_urls : input.reference_urls) ?? [];

  if (p.audio != null && rules.audio === null) {
    throw GatewayError.invalid(
      `parameters.audio is only accepted by wx2.6-r2v-flash; model '${model}' has no audio switch.`,
      'parameters.audio',
    );
  }
  const counts = checkAxOldReferences(refs, refsParam, urls);

  const size = p.size ?? AX_OLD.defaults.size;
  const duration = p.duration ?? AX_OLD.defaults.duration;
  const audio = rules.audio === null ? null : (p.audio ?? rules.audio.default);

  const upstreamBody: AxUpstreamBody = {
    model,
    input: defined({
      prompt: input.prompt,
      negative_prompt: input.negative_prompt,
      reference_urls: [...(refs as string[])],
    }),
    parameters: defined({
      size,
      duration,
      shot_type: p.shot_type ?? AX_OLD.defaults.shot_type,
      // Sent explicitly on flash: the silent variant exists only with an explicit false upstream.
      audio: audio ?? undefined,
      watermark: p.watermark ?? AX_OLD.defaults.watermark,
      seed: p.seed,
    }),
  };
  return {
    model,
    protocol: 'ax-r2v-old',
    upstreamBody,
    snapshot: redactBase64(upstreamBody) as unknown as Json,
    billing: {
      kind: 'ax-r2v',
      resolution: AX_OLD_SIZES[size].tier,
      durationSeconds: duration,
      referenceImages: counts.referenceImages,
      referenceVideos: counts.referenceVideos,
      audio,
    },
    usedDeprecatedField,
    promptTruncated: false,
  };
}
