/**
 * The OpenAI-shaped video fields mapped onto families B and C, as data: each family's size table,
 * where `prompt`, `seconds`, `size` and `input_reference` land in its native body, and the way
 * back from a stored request to the Video object's `size`, `seconds` and `prompt`. This is the
 * face's only rule; everything else is the family's own validation of the native body built here.
 */
import type { FamilyId } from '../../core/models/model-catalogue';
import { AX_FAMILY_ID } from '../../families/ax/ax.ids';
import { AX_OLD_SIZES, axModelRules } from '../../families/ax/rules/ax-model-rules';
import { VD_FAMILY_ID } from '../../families/vd/vd.ids';
import { GatewayError } from '../../platform/errors';
import { capEchoed } from '../../platform/validation/validate-dto';

/** The fields this API defines; every other body field is the family's own, by its native name. */
export const FACE_FIELDS = ['model', 'prompt', 'seconds', 'size', 'input_reference'] as const;
export type FaceField = (typeof FACE_FIELDS)[number];

/** The face's fields once read: the reference is a URL or a `data:` URL built from an uploaded file. */
export interface FaceValues {
  model: string;
  prompt?: unknown;
  seconds?: number;
  size?: string;
  image?: string;
}

/** One row of a size table: the native values a `size` stands for. */
export interface SizeRow {
  readonly resolution: string;
  readonly ratio: string;
}

/** What the Video object shows of a stored request. */
export interface VideoFacts {
  prompt: string | null;
  seconds: string | null;
  size: string | null;
}

/** A family as this API sees it: its size table, where each face field lands, and the way back. */
export interface FaceMapping {
  readonly family: FamilyId;
  /** `WxH` -> the family's resolution and aspect ratio. */
  readonly sizes: Readonly<Record<string, SizeRow>>;
  /** The native body paths each face field fills for this model (for conflicts and error params). */
  targets(model: string): Readonly<Partial<Record<FaceField, readonly string[]>>>;
  /** The native body: the caller's native fields with the face's values put in place. */
  nativeBody(values: FaceValues, native: Record<string, unknown>): Record<string, unknown>;
  /** Prompt, duration and size of a stored request (the family's snapshot of its upstream body). */
  facts(snapshot: Record<string, unknown>): VideoFacts;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function section(value: unknown): Json {
  return isObject(value) ? { ...value } : {};
}

function given<T>(fields: Record<string, T | undefined>): Record<string, T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, T>;
}

function sizeFor(sizes: Readonly<Record<string, SizeRow>>, row: SizeRow): string | null {
  return (
    Object.keys(sizes).find((size) => sizes[size].resolution === row.resolution && sizes[size].ratio === row.ratio) ??
    null
  );
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const secondsText = (value: unknown): string | null => (typeof value === 'number' ? String(value) : null);

// ---- ax ------------------------------------------------------------------------------------

/** ax's sizes are its old protocol's `W*H` list; the new protocol takes the same pairs as resolution and ratio. */
const AX_SIZES: Readonly<Record<string, SizeRow>> = Object.freeze(
  Object.fromEntries(
    Object.entries(AX_OLD_SIZES).map(([size, { tier, ratio }]) => [
      size.replace('*', 'x'),
      { resolution: tier, ratio },
    ]),
  ),
);

const isAxOld = (model: string): boolean => axModelRules(model)?.protocol === 'ax-r2v-old';

export const AX_FACE: FaceMapping = {
  family: AX_FAMILY_ID,
  sizes: AX_SIZES,
  targets: (model) =>
    isAxOld(model)
      ? {
          prompt: ['input.prompt'],
          seconds: ['parameters.duration'],
          size: ['parameters.size'],
          input_reference: ['input.reference_urls', 'input.reference_video_urls'],
        }
      : {
          prompt: ['input.prompt'],
          seconds: ['parameters.duration'],
          size: ['parameters.resolution', 'parameters.ratio'],
          input_reference: ['input.media'],
        },
  nativeBody(values, native) {
    const old = isAxOld(values.model);
    const row = values.size === undefined ? undefined : AX_SIZES[values.size];
    const input = { ...section(native.input), ...given({ prompt: values.prompt }) };
    if (values.image !== undefined) {
      if (old) input.reference_urls = [values.image];
      else input.media = [{ type: 'reference_image', url: values.image }];
    }
    const sized =
      row && (old ? { size: values.size!.replace('x', '*') } : { resolution: row.resolution, ratio: row.ratio });
    const parameters = { ...section(native.parameters), ...given({ duration: values.seconds }), ...sized };
    return {
      ...native,
      model: values.model,
      input,
      ...(Object.keys(parameters).length > 0 || native.parameters !== undefined ? { parameters } : {}),
    };
  },
  facts(snapshot) {
    const input = section(snapshot.input);
    const parameters = section(snapshot.parameters);
    const oldSize = text(parameters.size);
    const size = oldSize
      ? oldSize.replace('*', 'x')
      : sizeFor(AX_SIZES, { resolution: String(parameters.resolution), ratio: String(parameters.ratio) });
    return { prompt: text(input.prompt), seconds: secondsText(parameters.duration), size };
  },
};

// ---- vd ------------------------------------------------------------------------------------

/** vd's resolutions at its five ratios, with the pixel sizes they stand for. */
const VD_SIZES: Readonly<Record<string, SizeRow>> = Object.freeze(
  Object.fromEntries(
    (
      [
        ['360p', 640, 360, 480],
        ['540p', 960, 540, 720],
        ['720p', 1280, 720, 960],
        ['1080p', 1920, 1080, 1440],
      ] as const
    ).flatMap(([resolution, wide, short, fourThree]) => [
      [`${wide}x${short}`, { resolution, ratio: '16:9' }],
      [`${short}x${wide}`, { resolution, ratio: '9:16' }],
      [`${short}x${short}`, { resolution, ratio: '1:1' }],
      [`${fourThree}x${short}`, { resolution, ratio: '4:3' }],
      [`${short}x${fourThree}`, { resolution, ratio: '3:4' }],
    ]),
  ),
);

export const VD_FACE: FaceMapping = {
  family: VD_FAMILY_ID,
  sizes: VD_SIZES,
  targets: () => ({
    prompt: ['prompt'],
    seconds: ['duration'],
    size: ['resolution', 'aspect_ratio'],
    // `subjects` too: without any reference the family names the field of its first mode.
    input_reference: ['images', 'subjects'],
  }),
  nativeBody(values, native) {
    const row = values.size === undefined ? undefined : VD_SIZES[values.size];
    return {
      ...native,
      model: values.model,
      ...given({ prompt: values.prompt, duration: values.seconds }),
      ...(values.image !== undefined ? { images: [values.image] } : {}),
      ...(row ? { resolution: row.resolution, aspect_ratio: row.ratio } : {}),
    };
  },
  facts(snapshot) {
    const size = sizeFor(VD_SIZES, { resolution: String(snapshot.resolution), ratio: String(snapshot.aspect_ratio) });
    return { prompt: text(snapshot.prompt), seconds: secondsText(snapshot.duration), size };
  },
};

/** The families this API serves, by family ID. */
export const FACE_MAPPINGS: Readonly<Partial<Record<FamilyId, FaceMapping>>> = Object.freeze({
  [AX_FAMILY_ID]: AX_FACE,
  [VD_FAMILY_ID]: VD_FACE,
});

// ---- reading the face's fields --------------------------------------------------------------------

/** `seconds` as a whole number of seconds (the SDK sends a string, JSON callers may send a number). */
export function readSeconds(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const digits = typeof value === 'number' ? String(value) : value;
  if (typeof digits !== 'string' || !/^[1-9]\d{0,2}$/.test(digits.trim()))
    throw GatewayError.invalid('seconds must be a whole number of seconds, as a string or a number.', 'seconds');
  return Number(digits.trim());
}

/** `size` as one of the family's `WxH` values. */
export function readSize(value: unknown, mapping: FaceMapping): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !Object.prototype.hasOwnProperty.call(mapping.sizes, value)) {
    throw GatewayError.invalid(`size must be one of ${Object.keys(mapping.sizes).join(', ')} for this model.`, 'size');
  }
  return value;
}

/** `input_reference`: `{image_url}` (or an uploaded image, already read into a `data:` URL). */
export function readReference(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && value.startsWith('data:image/')) return value;
  const form = '{"image_url": "<http(s) or data:image URL>"} or an uploaded image file';
  if (!isObject(value))
    throw GatewayError.invalid(`input_reference must be ${form}; got ${describe(value)}.`, 'input_reference');
  if ('file_id' in value)
    throw GatewayError.invalid(`input_reference.file_id is not supported: send ${form}.`, 'input_reference.file_id');
  const extra = Object.keys(value).find((k) => k !== 'image_url');
  if (extra !== undefined)
    throw GatewayError.invalid(
      `Unknown field 'input_reference.${capEchoed(extra)}': send ${form}.`,
      `input_reference.${capEchoed(extra)}`,
    );
  if (typeof value.image_url !== 'string' || value.image_url.length === 0)
    throw GatewayError.invalid(
      `input_reference.image_url must be a non-empty URL string.`,
      'input_reference.image_url',
    );
  return value.image_url;
}

/** What a value that is no object was, for the message. */
function describe(value: unknown): string {
  if (typeof value === 'string') {
    if (value.startsWith('data:')) return 'a data: URL that is no image';
    return /^https?:/i.test(value) ? 'a bare URL (put it in image_url)' : 'a string';
  }
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** The path a native field was sent at, for telling whether a face field names the same thing. */
function sentAt(native: Json, path: string): boolean {
  const [head, tail] = path.split('.');
  if (!Object.prototype.hasOwnProperty.call(native, head) || native[head] === undefined) return false;
  return tail === undefined ? true : isObject(native[head]) && (native[head] as Json)[tail] !== undefined;
}

/** A face field and the native field it fills may not both be sent: which one would win is not the caller's guess. */
export function rejectConflicts(mapping: FaceMapping, values: FaceValues, native: Json): void {
  const targets = mapping.targets(values.model);
  const sent: Partial<Record<FaceField, boolean>> = {
    prompt: values.prompt !== undefined,
    seconds: values.seconds !== undefined,
    size: values.size !== undefined,
    input_reference: values.image !== undefined,
  };
  for (const [field, paths] of Object.entries(targets) as Array<[FaceField, readonly string[]]>) {
    if (!sent[field]) continue;
    const both = paths.find((path) => sentAt(native, path));
    if (both) throw GatewayError.invalid(`Send ${field} or ${both}, not both.`, both);
  }
}

/** What a create without any reference is told: the face's own field, not the family's native ones. */
export const MISSING_REFERENCE =
  'input_reference is required: {"image_url": "<http(s) or data:image URL>"} or an uploaded image file.';

/**
 * A family rule's error about a native field the face filled names the face's field instead, in
 * `param` and at the head of the message (the caller never sent the native one); errors about
 * fields the caller sent natively keep their name.
 * A family's "no reference" error, when the caller sent none at all, is told in the face's words.
 */
export function renameParam(error: GatewayError, mapping: FaceMapping, values: FaceValues, native: Json): GatewayError {
  const param = error.param;
  if (param === null) return error;
  for (const [field, paths] of Object.entries(mapping.targets(values.model)) as Array<[FaceField, readonly string[]]>) {
    const path = paths.find((p) => param === p || param.startsWith(`${p}.`) || param.startsWith(`${p}[`));
    if (path === undefined || sentAt(native, path)) continue;
    const missing = field === 'input_reference' && values.image === undefined && param === path;
    return new GatewayError(
      error.status,
      error.code,
      missing ? MISSING_REFERENCE : renamedMessage(error.message, param, field),
      field,
      error.options,
    );
  }
  return error;
}

/** A rule's message opens with the field path it is about; only that opening is renamed, never the prose after it. */
function renamedMessage(message: string, param: string, field: string): string {
  return message.startsWith(param) ? `${field}${message.slice(param.length)}` : message;
}
