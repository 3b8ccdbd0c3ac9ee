/**
 * Family-neutral checks of media references in request bodies: Base64 data URLs, inline image and
 * video probing, http(s) URL scheme and extension checks, and Base64 redaction for stored
 * snapshots and logs. Each family's rules pass in their own limits and the field path to name in
 * the 400 error; nothing here knows a family's numbers.
 *
 * Nothing here fetches: an image behind a URL is read by `media-probe-remote.ts` (first bytes only,
 * through an SSRF-filtering agent) where a family's rules ask for it; other remote references are
 * judged by their URL alone and the upstream rejects what it cannot use.
 */
import { imageSize } from 'image-size';
import type { ISizeCalculationResult } from 'image-size/dist/types/interface';
import { GatewayError } from '../../platform/errors';

export const MiB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Base64 data URLs
// ---------------------------------------------------------------------------------------------

export interface Base64DataUrl {
  /** Lower-cased MIME type, e.g. `image/png`. */
  mime: string;
  /** The Base64 payload exactly as sent (no whitespace allowed). */
  base64: string;
  /** Decoded size in bytes, computed without decoding. */
  byteLength: number;
}

/** `data:` followed by a MIME type, optional `;k=v` parameters and the `;base64` marker. */
const DATA_URL = /^data:([a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+)((?:;[a-z0-9!#$&^_.+-]+=[^;,]*)*)(;base64)?,/i;
/** Standard alphabet (not base64url), padding optional; `length % 4 === 1` is never valid. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function isDataUrl(value: string): boolean {
  return /^data:/i.test(value);
}

/** Decoded length of a well-formed Base64 string. */
export function base64DecodedLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const chars = base64.length - padding;
  return Math.floor((chars * 3) / 4);
}

function isWellFormedBase64(base64: string): boolean {
  if (base64.length === 0 || !BASE64.test(base64)) return false;
  const padding = base64.length - base64.replace(/=+$/, '').length;
  if (padding > 0 && base64.length % 4 !== 0) return false;
  return base64.length % 4 !== 1;
}

/**
 * Parses `data:{mime}[;k=v...];base64,{data}`. Throws a 400 naming `param` when the value is a
 * data URL without Base64 encoding or with a malformed payload. The payload is never echoed.
 */
export function parseBase64DataUrl(value: string, param: string): Base64DataUrl {
  const match = DATA_URL.exec(value);
  if (!match)
    throw GatewayError.invalid(`${param} is not a valid data URL; expected data:{MIME_type};base64,{data}.`, param);
  if (!match[3]) throw GatewayError.invalid(`${param} must be Base64-encoded (data:{MIME_type};base64,{data}).`, param);
  const base64 = value.slice(match[0].length);
  if (!isWellFormedBase64(base64)) throw GatewayError.invalid(`${param} holds malformed Base64 data.`, param);
  return { mime: match[1].toLowerCase(), base64, byteLength: base64DecodedLength(base64) };
}

// ---------------------------------------------------------------------------------------------
// URLs
// ---------------------------------------------------------------------------------------------

/**
 * Parses an absolute http(s) URL with a host, or throws a 400 naming `param`. The raw text must
 * already start with `http://` or `https://`: the WHATWG parser would repair `https:x.com/a` or
 * leading spaces, but the upstream receives the caller's text, not the repaired one (and
 * re-serialising could break signed URLs).
 */
export function parseHttpUrl(value: string, param: string): URL {
  if (!/^https?:\/\/[^\s/]/i.test(value) || /\s/.test(value))
    throw GatewayError.invalid(`${param} must be an http(s) URL.`, param);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw GatewayError.invalid(`${param} must be an http(s) URL.`, param);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw GatewayError.invalid(`${param} must be an http(s) URL.`, param);
  }
  return url;
}

/**
 * Lower-cased extension of the URL path's last segment (`https://x/a/B.PNG?sig=1` -> `png`), or
 * null when the segment has none. Query and fragment never count, so signed URLs work.
 */
export function urlPathExtension(url: URL | string): string | null {
  const pathname = typeof url === 'string' ? new URL(url).pathname : url.pathname;
  const segment = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = segment.lastIndexOf('.');
  if (dot <= 0 || dot === segment.length - 1) return null;
  let ext = segment.slice(dot + 1);
  try {
    ext = decodeURIComponent(ext);
  } catch {
    // keep the raw text; it will simply not match an allowed extension
  }
  return ext.toLowerCase();
}

/**
 * Checks an http(s) URL and, where its path has an extension, that the extension is one of
 * `extensions` (lower case, no dot). `what` names the material in the message ("image", "audio").
 */
export function checkMediaUrl(value: string, extensions: readonly string[], param: string, what: string): URL {
  const url = parseHttpUrl(value, param);
  const ext = urlPathExtension(url);
  if (ext !== null && !extensions.includes(ext)) {
    throw GatewayError.invalid(
      `${param}: '.${ext}' is not a supported ${what} format (allowed: ${extensions.join(', ')}).`,
      param,
    );
  }
  return url;
}

// ---------------------------------------------------------------------------------------------
// Images
// ---------------------------------------------------------------------------------------------

/** image-size's names; the gateway accepts at most these four, others are listed as found. */
export type ImageFormat = 'jpg' | 'png' | 'bmp' | 'webp' | (string & {});

/** MIME types of data URLs mapped to the format their bytes must have. */
export const IMAGE_MIME_FORMATS: Readonly<Record<string, ImageFormat>> = Object.freeze({
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/pjpeg': 'jpg',
  'image/png': 'png',
  'image/bmp': 'bmp',
  'image/x-bmp': 'bmp',
  'image/x-ms-bmp': 'bmp',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/tiff': 'tiff',
  'image/svg+xml': 'svg',
});

export interface ImageProbe {
  format: ImageFormat;
  width: number;
  height: number;
  /** PNG only: an alpha channel (colour type 4 or 6) or a tRNS chunk. null for other formats. */
  hasTransparency: boolean | null;
}

/** Reads format and pixel size from the header (no full decode). null when not a readable image. */
export function probeImage(bytes: Uint8Array): ImageProbe | null {
  let size: ISizeCalculationResult;
  try {
    // A Uint8Array, never a string: image-size reads a string argument as a file path.
    size = imageSize(bytes);
  } catch {
    return null;
  }
  const { width, height, type } = size;
  if (!type || !Number.isInteger(width) || !Number.isInteger(height) || !width || !height) return null;
  return { format: type, width, height, hasTransparency: type === 'png' ? pngHasTransparency(bytes) : null };
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Colour types 4 (greyscale + alpha) and 6 (RGB + alpha) carry an alpha channel. */
const PNG_ALPHA_COLOUR_TYPES = new Set([4, 6]);

/**
 * Whether a PNG can be transparent: an alpha colour type in IHDR, or a tRNS chunk (which must come
 * before the first IDAT). Walks the chunk list, so Apple's CgBI variant works too.
 */
export function pngHasTransparency(bytes: Uint8Array): boolean {
  if (!PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  while (offset + 8 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(bytes[offset + 4], bytes[offset + 5], bytes[offset + 6], bytes[offset + 7]);
    const data = offset + 8;
    if (type === 'IHDR' && data + 10 <= bytes.length && PNG_ALPHA_COLOUR_TYPES.has(bytes[data + 9])) return true;
    if (type === 'tRNS') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    offset = data + length + 4; // data + CRC
  }
  return false;
}

export interface ImageLimits {
  /** Accepted formats, image-size names (`jpg`, `png`, `bmp`, `webp`). */
  formats: readonly ImageFormat[];
  minSide: number;
  /** Omitted: no upper bound. */
  maxSide?: number;
  /** Longer side / shorter side at most this (8 means 1:8 to 8:1); omitted: no ratio rule. */
  maxAspectRatio?: number;
  maxBytes: number;
  /** false: PNGs with an alpha channel or tRNS chunk are rejected. */
  allowPngTransparency: boolean;
}

function describeFormats(formats: readonly ImageFormat[]): string {
  return formats.map((f) => (f === 'jpg' ? 'JPEG' : f.toUpperCase())).join(', ');
}

export function imageTooLarge(param: string, maxBytes: number): GatewayError {
  return GatewayError.invalid(`${param}: the image is larger than ${maxBytes / MiB} MB.`, param);
}

/** Checks decoded image bytes against `limits`; `declared` is the format the data URL's MIME names. */
export function checkImageBytes(
  bytes: Uint8Array,
  limits: ImageLimits,
  param: string,
  declared?: ImageFormat,
): ImageProbe {
  if (bytes.length > limits.maxBytes) throw imageTooLarge(param, limits.maxBytes);
  return checkImageProbe(probeImage(bytes), limits, param, declared);
}

/**
 * Checks what the header of an image says (format, transparency, pixels, ratio) against `limits`;
 * `null` (no readable header) is a 400 too. The byte size is the caller's to check.
 */
export function checkImageProbe(
  probe: ImageProbe | null,
  limits: ImageLimits,
  param: string,
  declared?: ImageFormat,
): ImageProbe {
  if (!probe) throw GatewayError.invalid(`${param} is not a readable image.`, param);
  if (!limits.formats.includes(probe.format)) {
    throw GatewayError.invalid(
      `${param}: image format ${probe.format} is not supported (allowed: ${describeFormats(limits.formats)}).`,
      param,
    );
  }
  if (declared !== undefined && declared !== probe.format) {
    throw GatewayError.invalid(`${param}: the data URL declares ${declared} but the image is ${probe.format}.`, param);
  }
  if (!limits.allowPngTransparency && probe.hasTransparency) {
    throw GatewayError.invalid(
      `${param}: PNG images must not have transparency (an alpha channel or a tRNS chunk, even if every pixel is opaque); save it without alpha.`,
      param,
    );
  }
  const { width, height } = probe;
  for (const [side, value] of [
    ['width', width],
    ['height', height],
  ] as const) {
    const { minSide, maxSide } = limits;
    if (value < minSide || (maxSide !== undefined && value > maxSide)) {
      const allowed = maxSide === undefined ? `at least ${minSide} px` : `${minSide} to ${maxSide} px`;
      const too = value < minSide ? 'small' : 'large';
      throw GatewayError.invalid(`${param}: image ${side} ${value} px is too ${too}; it must be ${allowed}.`, param);
    }
  }
  if (
    limits.maxAspectRatio !== undefined &&
    Math.max(width, height) > limits.maxAspectRatio * Math.min(width, height)
  ) {
    throw GatewayError.invalid(
      `${param}: image aspect ratio ${width}:${height} is outside 1:${limits.maxAspectRatio} to ${limits.maxAspectRatio}:1.`,
      param,
    );
  }
  return probe;
}

/**
 * Full check of an image data URL: Base64 shape, size (before decoding, so an oversized payload
 * costs nothing), MIME against the allowed formats, then the decoded bytes.
 */
export function checkImageDataUrl(
  value: string,
  limits: ImageLimits,
  param: string,
): ImageProbe & { mime: string; byteLength: number } {
  const data = parseBase64DataUrl(value, param);
  const declared = IMAGE_MIME_FORMATS[data.mime];
  if (!data.mime.startsWith('image/'))
    throw GatewayError.invalid(`${param}: the data URL must hold an image (got ${data.mime}).`, param);
  if (declared === undefined || !limits.formats.includes(declared)) {
    throw GatewayError.invalid(
      `${param}: image type ${data.mime} is not supported (allowed: ${describeFormats(limits.formats)}).`,
      param,
    );
  }
  if (data.byteLength > limits.maxBytes) throw imageTooLarge(param, limits.maxBytes);
  const probe = checkImageBytes(Buffer.from(data.base64, 'base64'), limits, param, declared);
  return { ...probe, mime: data.mime, byteLength: data.byteLength };
}

// ---------------------------------------------------------------------------------------------
// Videos (ISO base media: MP4 / MOV; AVI)
// ---------------------------------------------------------------------------------------------

export type VideoContainer = 'mp4' | 'mov' | 'avi';

export const VIDEO_MIME_CONTAINERS: Readonly<Record<string, VideoContainer>> = Object.freeze({
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/x-msvideo': 'avi',
  'video/avi': 'avi',
  'video/msvideo': 'avi',
});

export interface VideoProbe {
  container: VideoContainer;
  /** From the movie header (`moov/mvhd`) or AVI's main header (`hdrl/avih`); null when there is none. */
  durationSeconds: number | null;
}

/** An AVI file: a RIFF container of form type `AVI `. */
function isAvi(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'AVI ';
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

/** RIFF chunks between `from` and `to`: a four-letter ID, a little-endian size, data padded to even. */
function* riffChunks(bytes: Uint8Array, view: DataView, from: number, to: number): Generator<Box> {
  let offset = from;
  while (offset + 8 <= to) {
    const size = view.getUint32(offset + 4, true);
    const start = offset + 8;
    if (start + size > to) return;
    yield { type: ascii(bytes, offset, offset + 4), start, end: start + size };
    offset = start + size + (size % 2);
  }
}

/** An AVI's length from its main header (`hdrl/avih`): microseconds per frame times total frames. */
function aviDurationSeconds(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const list of riffChunks(bytes, view, 12, bytes.length)) {
    if (list.type !== 'LIST' || list.end - list.start < 4 || ascii(bytes, list.start, list.start + 4) !== 'hdrl')
      continue;
    const avih = [...riffChunks(bytes, view, list.start + 4, list.end)].find((c) => c.type === 'avih');
    if (!avih || avih.end - avih.start < 20) return null;
    const microsPerFrame = view.getUint32(avih.start, true);
    const frames = view.getUint32(avih.start + 16, true);
    return microsPerFrame > 0 && frames > 0 ? (microsPerFrame * frames) / 1_000_000 : null;
  }
  return null;
}

const TOP_LEVEL_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot', 'uuid']);

interface Box {
  type: string;
  start: number;
  end: number;
}

function* boxes(bytes: Uint8Array, view: DataView, from: number, to: number): Generator<Box> {
  let offset = from;
  while (offset + 8 <= to) {
    let size = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    let header = 8;
    if (size === 1) {
      if (offset + 16 > to) return;
      size = Number(view.getBigUint64(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = to - offset;
    }
    if (size < header || offset + size > to) return;
    yield { type, start: offset + header, end: offset + size };
    offset += size;
  }
}

/**
 * Recognises an MP4/MOV by its box structure and reads the duration from `moov/mvhd`, or an AVI by
 * its RIFF header and the duration from its main header. Only headers are read; frames are not
 * decoded. null when the bytes are neither ISO base media with a movie header nor AVI.
 */
export function probeVideo(bytes: Uint8Array): VideoProbe | null {
  if (isAvi(bytes)) return { container: 'avi', durationSeconds: aviDurationSeconds(bytes) };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const top = [...boxes(bytes, view, 0, bytes.length)];
  if (top.length === 0 || !TOP_LEVEL_BOXES.has(top[0].type)) return null;
  const ftyp = top.find((b) => b.type === 'ftyp');
  const brand =
    ftyp && ftyp.end - ftyp.start >= 4 ? String.fromCharCode(...bytes.subarray(ftyp.start, ftyp.start + 4)) : null;
  const container: VideoContainer = brand === null || brand === 'qt  ' ? 'mov' : 'mp4';
  if (!top.some((b) => b.type === 'moov')) return null;
  let durationSeconds: number | null = null;
  const moov = top.find((b) => b.type === 'moov')!;
  const mvhd = [...boxes(bytes, view, moov.start, moov.end)].find((b) => b.type === 'mvhd');
  if (mvhd) {
    const version = bytes[mvhd.start];
    // version 0: created(4) modified(4) timescale(4) duration(4); version 1: 8, 8, 4, 8
    const timescaleAt = mvhd.start + 4 + (version === 1 ? 16 : 8);
    const needed = timescaleAt + 4 + (version === 1 ? 8 : 4);
    if (needed <= mvhd.end) {
      const timescale = view.getUint32(timescaleAt);
      const duration = version === 1 ? Number(view.getBigUint64(timescaleAt + 4)) : view.getUint32(timescaleAt + 4);
      if (timescale > 0) durationSeconds = duration / timescale;
    }
  }
  return { container, durationSeconds };
}

export interface VideoLimits {
  containers: readonly VideoContainer[];
  maxBytes: number;
  /** Both omitted: the duration is not checked (nor required to be readable). */
  minSeconds?: number;
  maxSeconds?: number;
  /** The rule behind `maxSeconds`, in words, added to the message of a video over it. */
  durationRule?: string;
  /**
   * How far past `maxSeconds` a video may run: the container of an N-second clip often measures a
   * few hundredths more (encoder padding), and the rule names the clip's length. Default 0.
   */
  overrunSeconds?: number;
}

/** MP4 and MOV are both ISO base media, and their brands are used loosely in practice. */
const isoMedia = (container: VideoContainer): boolean => container === 'mp4' || container === 'mov';

/**
 * Full check of a video data URL: the MIME type names an allowed container, the decoded size is
 * within the limit (measured before decoding), and the decoded bytes are a readable video of the
 * container the MIME type names, within the duration limits when there are any. An MP4 labelled
 * `video/quicktime` (or the reverse) is not rejected; an AVI labelled as either is.
 */
export function checkVideoDataUrl(
  value: string,
  limits: VideoLimits,
  param: string,
): VideoProbe & { mime: string; byteLength: number } {
  const data = parseBase64DataUrl(value, param);
  if (!data.mime.startsWith('video/'))
    throw GatewayError.invalid(`${param}: the data URL must hold a video (got ${data.mime}).`, param);
  const declared = VIDEO_MIME_CONTAINERS[data.mime];
  if (declared === undefined || !limits.containers.includes(declared)) {
    throw GatewayError.invalid(
      `${param}: video type ${data.mime} is not supported (allowed: ${limits.containers.join(', ').toUpperCase()}).`,
      param,
    );
  }
  if (data.byteLength > limits.maxBytes) {
    throw GatewayError.invalid(`${param}: the video is larger than ${limits.maxBytes / MiB} MB.`, param);
  }
  const probe = probeVideo(Buffer.from(data.base64, 'base64'));
  const timed = limits.minSeconds !== undefined || limits.maxSeconds !== undefined;
  if (!probe || (timed && probe.durationSeconds === null))
    throw GatewayError.invalid(`${param} is not a readable ${limits.containers.join('/').toUpperCase()} video.`, param);
  if (isoMedia(probe.container) !== isoMedia(declared)) {
    throw GatewayError.invalid(
      `${param}: the data URL declares ${declared.toUpperCase()} but the video is ${probe.container.toUpperCase()}.`,
      param,
    );
  }
  const seconds = probe.durationSeconds;
  const min = limits.minSeconds ?? 0;
  const max = limits.maxSeconds ?? Number.POSITIVE_INFINITY;
  if (seconds !== null && timed && (seconds < min || seconds > max + (limits.overrunSeconds ?? 0))) {
    const measured = Math.round(seconds * 100) / 100;
    const rule = limits.durationRule ? ` (${limits.durationRule})` : '';
    const limit = limits.minSeconds === undefined ? `longer than ${max} s` : `outside ${min} to ${max} s`;
    throw GatewayError.invalid(`${param}: video duration ${measured} s is ${limit}${rule}.`, param);
  }
  return { ...probe, mime: data.mime, byteLength: data.byteLength };
}

// ---------------------------------------------------------------------------------------------
// Redaction for snapshots and logs (never a Base64 payload in a log line)
// ---------------------------------------------------------------------------------------------

export function base64Placeholder(mime: string | null, byteLength: number): string {
  return mime ? `[base64 ${mime} ${byteLength} bytes]` : `[base64 ${byteLength} bytes]`;
}

const DATA_URL_HEAD = /^data:([^;,]*)(?:;[^;,]*)*;base64,/i;
/** A bare Base64 blob: long and nothing but the alphabet. */
const BARE_BASE64_MIN_LENGTH = 256;

export interface RedactOptions {
  /**
   * Also replace long strings made only of the Base64 alphabet (for APIs that take prefix-less
   * Base64, like kl's `image_list[].image`). Off by default: a long one-word prompt would
   * match too, so only turn it on where such text cannot occur.
   */
  bareBase64?: boolean;
}

function redactString(value: string, options: RedactOptions): string {
  const head = DATA_URL_HEAD.exec(value);
  if (head) {
    const payload = value.slice(head[0].length);
    return base64Placeholder(head[1].toLowerCase() || null, base64DecodedLength(payload));
  }
  if (options.bareBase64 && value.length >= BARE_BASE64_MIN_LENGTH && BASE64.test(value)) {
    return base64Placeholder(null, base64DecodedLength(value));
  }
  return value;
}

/**
 * A deep copy of `value` in which every Base64 data URL (and, when asked, every long bare Base64
 * string) is replaced by a short placeholder such as `[base64 image/png 1234 bytes]`.
 */
export function redactBase64<T>(value: T, options: RedactOptions = {}): T {
  if (typeof value === 'string') return redactString(value, options) as T;
  if (Array.isArray(value)) return value.map((v) => redactBase64(v, options)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactBase64(v, options);
    return out as T;
  }
  return value;
}
