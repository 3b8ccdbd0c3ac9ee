import { ValidateBy, ValidationOptions, buildMessage } from 'class-validator';

/**
 * Prompt limits count characters, not UTF-16 code units: a Chinese character or an emoji is one
 * character. (class-validator's MaxLength counts code units, so an emoji would count twice.) A
 * field the upstream counts in code units takes `MaxUtf16Units` instead.
 */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The first `max` characters, never splitting a surrogate pair. */
export function truncateChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  let n = 0;
  for (const ch of text) {
    if (n++ === max) break;
    out += ch;
  }
  return out;
}

/**
 * The longest string a client may send in each kind of field, so no field is stored or forwarded
 * unbounded. Fields with a rule of their own (prompts, voice names, vd's payload) keep it.
 */
export const TEXT_LIMITS = {
  /** Any http(s) URL: callback, voice, video, watermark URLs and media links. */
  url: 2048,
  /** Identifiers: the caller's external_task_id, and IDs the gateway or an upstream minted. */
  id: 255,
  /** Short names and labels (a vd subject's name). */
  name: 255,
  /** A model name (the catalogue's names are far shorter; the stored column holds 100). */
  model: 100,
  /** Enumerated words (ratio, size, resolution): their rules name the values; this bounds the echo. */
  word: 64,
  /** Pass-through JSON metadata (vd meta_data). */
  metadata: 65_536,
} as const;

/** Characters of the Base64 text of `bytes` bytes, with room for a data-URL prefix. */
export function base64Chars(bytes: number): number {
  return Math.ceil(bytes / 3) * 4 + 256;
}

/**
 * At most `max` characters, counted quickly: code points never outnumber UTF-16 code units, nor
 * fall below half of them, so a text of any length costs at most 2 × `max` steps.
 */
export function withinChars(value: string, max: number): boolean {
  if (value.length <= max) return true;
  return value.length <= 2 * max && charCount(value) <= max;
}

/** Past this many characters a message says "more than" instead of counting on: a body may hold 64 MiB of text. */
const COUNTED_IN_MESSAGES = 100_000;

/** `text`'s length in characters for an error message, counted no further than 100,000. */
export function charCountForMessage(text: string): string {
  let n = 0;
  for (const _ of text) if (++n > COUNTED_IN_MESSAGES) return `more than ${COUNTED_IN_MESSAGES}`;
  return String(n);
}

/** A string of at most `max` characters (code points). */
export function MaxChars(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxChars',
      constraints: [max],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && withinChars(value, max),
        defaultMessage: buildMessage((each) => `${each}$property must be at most $constraint1 characters`, options),
      },
    },
    options,
  );
}

/**
 * A string of at most `max` UTF-16 code units: the count of an upstream that measures a string's
 * length as Java and JavaScript do. A character of the Basic Multilingual Plane (Latin, Cyrillic,
 * Chinese, Japanese, Korean) counts 1; one beyond it (most emoji) counts 2, and an emoji joined
 * from several code points counts every unit of each. Only for fields the upstream counts so.
 */
export function MaxUtf16Units(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxUtf16Units',
      constraints: [max],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && value.length <= max,
        defaultMessage: buildMessage(
          (each) =>
            `${each}$property must be at most $constraint1 characters, counted as the upstream counts them (UTF-16 code units: an emoji counts 2 or more)`,
          options,
        ),
      },
    },
    options,
  );
}

/** A string with at least one non-whitespace character. */
export function NotBlank(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'notBlank',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && /\S/.test(value),
        defaultMessage: buildMessage((each) => `${each}$property must not be empty`, options),
      },
    },
    options,
  );
}

/**
 * An http(s) URL field: at most `TEXT_LIMITS.url` characters. Only the length is checked here
 * (a non-string is left to the field's type rule, the scheme to its URL rule).
 */
export function MaxUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxUrl',
      constraints: [TEXT_LIMITS.url],
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || value.length <= TEXT_LIMITS.url,
        defaultMessage: buildMessage(
          (each) => `${each}$property must be a URL of at most $constraint1 characters`,
          options,
        ),
      },
    },
    options,
  );
}

/**
 * A media field that takes a URL or inline Base64: a URL of at most `TEXT_LIMITS.url` characters,
 * or Base64 no longer than a file of `maxBytes` bytes. A non-string is left to the field's type rule.
 */
export function MaxMediaChars(maxBytes: number, options?: ValidationOptions): PropertyDecorator {
  const inlineMax = base64Chars(maxBytes);
  return ValidateBy(
    {
      name: 'maxMediaChars',
      constraints: [TEXT_LIMITS.url, inlineMax],
      validator: {
        validate: (value: unknown) =>
          typeof value !== 'string' || value.length <= (/^https?:\/\//i.test(value) ? TEXT_LIMITS.url : inlineMax),
        defaultMessage: buildMessage(
          (each) =>
            `${each}$property must be a URL of at most $constraint1 characters or Base64 of at most $constraint2 characters`,
          options,
        ),
      },
    },
    options,
  );
}
