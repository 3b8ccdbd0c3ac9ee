import { ValidateBy, ValidationOptions, buildMessage } from 'class-validator';

/**
 * Prompt limits count characters, not UTF-16 code units: a Chinese character or an emoji is one
 * character. (class-validator's MaxLength counts code units, so an emoji would count twice.)
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

/** A string of at most `max` characters (code points). */
export function MaxChars(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxChars',
      constraints: [max],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && charCount(value) <= max,
        defaultMessage: buildMessage((each) => `${each}$property must be at most $constraint1 characters`, options),
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
