import { ValidateIf } from 'class-validator';

/**
 * The field may be left out, but a value sent is checked, `null` included. `@IsOptional()` skips
 * every check for `null` too, which suits only a field where `null` means something (a limit
 * cleared); elsewhere the `null` would reach a handler that stores it in a column that cannot hold it.
 */
export function IsOmittable(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}
