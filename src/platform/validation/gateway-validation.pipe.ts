import { ArgumentMetadata, PipeTransform, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';

/** What ValidationPipe leaves alone (its own list), plus "no type". */
const NOT_VALIDATED = new Set<unknown>([String, Boolean, Number, Array, Object, Buffer, Date, undefined]);

/**
 * The global ValidationPipe runs on every route parameter, and for most of them (the principal,
 * the chosen model, a string path parameter, a body typed `unknown`) it validates nothing. Those
 * are handed back at once, without its asynchronous round; DTO classes go to ValidationPipe as
 * before. Without `transform` and `validateCustomDecorators` (not accepted here) this is exactly
 * what ValidationPipe itself returns for them.
 */
export class GatewayValidationPipe implements PipeTransform {
  private readonly pipe: ValidationPipe;

  constructor(options: Omit<ValidationPipeOptions, 'transform' | 'validateCustomDecorators' | 'expectedType'>) {
    this.pipe = new ValidationPipe(options);
  }

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom' || NOT_VALIDATED.has(metadata.metatype)) return value;
    return this.pipe.transform(value, metadata);
  }
}
