import { ArgumentMetadata, PipeTransform, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { VALIDATION_ERROR_FIELDS, refuseUnusableBody, toGatewayError } from './validate-dto';

/** What ValidationPipe leaves alone (its own list), plus "no type". */
const NOT_VALIDATED = new Set<unknown>([String, Boolean, Number, Array, Object, Buffer, Date, undefined]);

/**
 * A ValidationPipe runs on every parameter of the routes it covers, and for many of them (a string
 * path parameter, a body typed `unknown`, a custom decorator's value) it validates nothing. Those
 * are handed back at once, without its asynchronous round; DTO classes go to ValidationPipe as
 * before. Without `transform` and `validateCustomDecorators` (not accepted here) this is exactly
 * what ValidationPipe itself returns for them.
 *
 * A body bound to a DTO class must be a JSON object. ValidationPipe validates a `null` body as `{}`
 * and then hands back the `null` (a DTO whose fields are all optional would pass it to the
 * handler), and it reports a number or a string as a missing `body`; both are refused here. So is
 * a key class-transformer drops unseen (`__proto__`, `constructor`, `prototype`): an unknown field.
 */
export class GatewayValidationPipe implements PipeTransform {
  private readonly pipe: ValidationPipe;

  constructor(options: Omit<ValidationPipeOptions, 'transform' | 'validateCustomDecorators' | 'expectedType'>) {
    this.pipe = new ValidationPipe(options);
  }

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom' || NOT_VALIDATED.has(metadata.metatype)) return value;
    if (metadata.type === 'body') refuseUnusableBody(value);
    return this.pipe.transform(value, metadata);
  }
}

/**
 * The gateway's DTO validation: unknown fields refused, the first failed rule of a field, the
 * gateway error object. Not global: Nest runs a global pipe's asynchronous chain for every
 * parameter of every route, and only the admin routes take DTO classes (a family's routes take
 * `unknown` bodies, checked by its own rules). A controller with DTO parameters adds
 * `@UsePipes(dtoValidationPipe)`.
 */
export const dtoValidationPipe = new GatewayValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  stopAtFirstError: true,
  validationError: VALIDATION_ERROR_FIELDS,
  exceptionFactory: (errors) => toGatewayError(errors),
});
