import { ValidationPipe } from '@nestjs/common';
import { VALIDATION_ERROR_FIELDS, toGatewayError } from '../platform/validation/validate-dto';

/**
 * Query strings arrive as text: this pipe returns the DTO instance with its @Transform-ed values
 * (the global pipe only validates). Unknown parameters are a 400 naming them, like unknown fields.
 */
export const AdminQueryPipe = new ValidationPipe({
  transform: true,
  whitelist: true,
  forbidNonWhitelisted: true,
  stopAtFirstError: true,
  validationError: VALIDATION_ERROR_FIELDS,
  exceptionFactory: (errors) => toGatewayError(errors),
});
