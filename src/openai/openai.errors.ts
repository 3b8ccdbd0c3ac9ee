import { ErrorDialect, GatewayError } from '../platform/errors';
import { ApiErrorResponses, ErrorCause } from '../platform/http/openapi/error-responses';

/**
 * The OpenAI-shaped routes answer with the error object alone (`{error: {message, type, param,
 * code}}`, which the SDK's error classes read), with no family's native fields beside it.
 */
export const OPENAI_ERRORS: ErrorDialect = {
  pathPrefix: '/v1/videos',
  nativeFields: () => ({}),
};

/** The documented error answers of `/v1/videos`: OpenAI's error object alone. */
export const OpenAiErrorResponses = (...causes: ErrorCause[]): MethodDecorator & ClassDecorator =>
  ApiErrorResponses({ name: 'OpenAiErrorAnswer', dialect: OPENAI_ERRORS }, causes);

/** The failures of the `/v1/videos` routes, beside the common ones. */
export const OPENAI_ERROR_CAUSES = {
  listQuery: {
    name: 'invalid_query',
    error: GatewayError.invalid('limit must be an integer from 1 to 100.', 'limit'),
    when: 'A query parameter breaks the paging rules (`param` names it).',
  },
  videoNotFound: {
    name: 'video_not_found',
    error: GatewayError.notFound('Video'),
    when: 'No such video for this caller (unknown, another account’s, or deleted).',
  },
  contentNotFound: {
    name: 'variant_not_found',
    error: new GatewayError(404, 'not_found', 'This video has no thumbnail variant.', 'variant'),
    when: 'The video is unknown, not completed, or has no such variant.',
  },
  notDeletable: {
    name: 'not_finished',
    error: GatewayError.invalid('Only a completed or failed video can be deleted.'),
    when: 'The video is still queued or in progress.',
  },
} satisfies Record<string, ErrorCause>;

/** 400 for a route of the vendor's API that no family here can serve. */
export function notOffered(method: string, path: string): GatewayError {
  return GatewayError.invalid(
    `${method} ${path} is not offered by this gateway; the ax and vd families have no such operation.`,
  );
}

/** The documented answer of a route that is not offered, for one of its paths. */
export function notOfferedCause(method: string, path: string): ErrorCause {
  return {
    name: 'not_offered',
    error: notOffered(method, path),
    when: 'Always: no family here offers this operation.',
  };
}
