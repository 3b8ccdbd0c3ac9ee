import { ErrorDialect } from '../platform/errors';

/**
 * The OpenAI-shaped routes answer with the error object alone (`{error: {message, type, param,
 * code}}`, which the SDK's error classes read), with no family's native fields beside it.
 */
export const OPENAI_ERRORS: ErrorDialect = {
  pathPrefix: '/v1/videos',
  nativeFields: () => ({}),
};

/** Paths whose POST bodies may be `multipart/form-data` (read by the route's own parser, not the JSON reader). */
export const OPENAI_MULTIPART_PATHS: readonly string[] = ['/v1/videos'];
