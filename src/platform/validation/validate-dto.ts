import { ClassConstructor, plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { GatewayError } from '../errors';
import { installValidationMetadataCache } from '../internals/class-validator-internals';

installValidationMetadataCache();

/** Joins a property path the way clients write it: `input.media[2].url`. */
export function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

/**
 * What class-validator keeps in its errors: the failing value (to tell a missing field from a wrong
 * one), never the validated object.
 */
export const VALIDATION_ERROR_FIELDS = { target: false, value: true } as const;

/**
 * The first (deepest) failing constraint of a class-validator error tree, with its field path. A
 * field that is absent is reported as required, whichever of its rules failed first. Needs the
 * failing values (`VALIDATION_ERROR_FIELDS`).
 */
export function firstViolation(errors: ValidationError[], parent = ''): { param: string; message: string } | null {
  for (const error of errors) {
    const path = joinPath(parent, error.property);
    if (error.constraints && Object.keys(error.constraints).length > 0) {
      const [kind, text] = Object.entries(error.constraints)[0];
      const message =
        kind === 'whitelistValidation'
          ? `Unknown field '${path}'.`
          : error.value === undefined
            ? `${path} is required.`
            : text.replace(error.property, path);
      return { param: path, message };
    }
    const nested = firstViolation(error.children ?? [], path);
    if (nested) return nested;
  }
  return null;
}

/** Longest caller-chosen text (a field name or path) echoed in an error; a junk key may be megabytes long. */
export const MAX_ECHOED_CHARS = 128;

/** Caps a caller-chosen text before it is echoed in an error message or `param`. */
export function capEchoed(text: string): string {
  return text.length > MAX_ECHOED_CHARS ? `${text.slice(0, MAX_ECHOED_CHARS)}...` : text;
}

export function toGatewayError(errors: ValidationError[]): GatewayError {
  const violation = firstViolation(errors);
  if (!violation) return GatewayError.invalid('Invalid request body.');
  const param = capEchoed(violation.param);
  return GatewayError.invalid(violation.message.split(violation.param).join(param), param);
}

/**
 * Validates a plain body against a DTO class: types, formats and unknown fields (rejected, never
 * silently dropped). Throws a 400 GatewayError naming the first offending field.
 */
export function validateDto<T extends object>(
  cls: ClassConstructor<T>,
  body: unknown,
  options: { allowUnknown?: boolean } = {},
): T {
  refuseUnusableBody(body, options);
  const instance = plainToInstance(cls, body, { enableImplicitConversion: false, exposeDefaultValues: false });
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: !options.allowUnknown,
    forbidUnknownValues: true,
    stopAtFirstError: true,
    validationError: VALIDATION_ERROR_FIELDS,
  });
  if (errors.length > 0) throw toGatewayError(errors);
  return instance;
}

/**
 * A body a DTO is built from must be a JSON object, and (unless unknown fields are allowed) hold no
 * key that class-transformer drops unseen. Throws the 400 that says which.
 */
export function refuseUnusableBody(body: unknown, options: { allowUnknown?: boolean } = {}): asserts body is object {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw GatewayError.invalid('The request body must be a JSON object.');
  }
  const forbidden = options.allowUnknown ? null : forbiddenKeyViolation(body);
  if (forbidden) throw GatewayError.invalid(forbidden.message, forbidden.param);
}

/**
 * Keys that class-transformer would silently drop (or that touch prototypes) are unknown fields too:
 * class-transformer takes a `constructor` member of a nested object for the class to build it with,
 * and skips a key naming a member every object inherits (`toString`, `valueOf`, `__defineGetter__`),
 * so such a field would be accepted unseen.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', ...Object.getOwnPropertyNames(Object.prototype)]);

/** The first such key anywhere in a body, as the unknown-field violation to answer with; null when none. */
export function forbiddenKeyViolation(body: unknown, path = ''): { param: string; message: string } | null {
  const found = findForbiddenKey(body, path);
  return found ? { param: capEchoed(found), message: `Unknown field '${capEchoed(found)}'.` } : null;
}

function findForbiddenKey(value: unknown, path: string): string | null {
  if (value === null || typeof value !== 'object') return null;
  for (const key of Object.keys(value)) {
    const childPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (!Array.isArray(value) && FORBIDDEN_KEYS.has(key)) return childPath;
    const nested = findForbiddenKey((value as Record<string, unknown>)[key], childPath);
    if (nested) return nested;
  }
  return null;
}
