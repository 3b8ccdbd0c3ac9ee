import { ErrorDialect, GatewayError, NativeCodeTable } from '../../platform/errors';
import { ApiErrorResponses, ErrorCause } from '../../platform/http/openapi/error-responses';
import { nativeCodeAndMessage } from '../common/native-error';
import { KL_PAGE_MAX } from './tasks/kl-task-list';

/** kl envelope codes, from the upstream API's own table. */
const KL_CODES: NativeCodeTable<number> = {
  byStatus: { 400: 1201, 401: 1000, 403: 1103, 409: 1201, 413: 1201, 422: 1201, 429: 1302, 500: 5000, 503: 5001 },
  modelNotFound: 1203,
  resourceNotFound: 1203,
};

/** A non-numeric (or zero) upstream code cannot be an envelope code: the table's is used. */
const klCode = (code: string | number): number | undefined => Number(code) || undefined;

/** The envelope `{code, message, request_id, data: null}` with a non-zero integer code. */
export const KL_ERRORS: ErrorDialect = {
  pathPrefix: '/kl/',
  nativeFields: (err, requestId) => ({
    ...nativeCodeAndMessage(err, KL_CODES, klCode),
    request_id: requestId,
    data: null,
  }),
};

/** The IDs of kl resources a request body names. */
export type KlIdField = 'session_id' | 'video_id' | 'voice_id';

const NOT_FOUND_MESSAGES: Record<KlIdField, string> = {
  session_id:
    'Unknown session_id: this account has no session with this ID. Sessions come from init-selection; initialise the video to get one.',
  video_id:
    'Unknown video_id: this account has no generated video with this ID (video IDs come from its succeeded editing tasks).',
  voice_id: 'Unknown voice_id: this account has no custom voice with this ID.',
};

/**
 * 404 naming the field for an ID the caller does not own: an unknown ID and another account's get
 * the same answer, so that nobody learns what exists.
 */
export function klNotFound(param: KlIdField): GatewayError {
  return new GatewayError(404, 'not_found', NOT_FOUND_MESSAGES[param], param);
}

/** 409 while another call holds the session: a session takes one call at a time. */
export function klSessionBusy(): GatewayError {
  return new GatewayError(
    409,
    'session_busy',
    'Another request on this session is still running (a session takes one call at a time); retry when it has answered.',
    'session_id',
  );
}

/** kl's documented error answers: the envelope with its native code. */
export const KlErrorResponses = (...causes: ErrorCause[]): MethodDecorator & ClassDecorator =>
  ApiErrorResponses({ name: 'KlErrorAnswer', dialect: KL_ERRORS }, causes);

/** The failures of kl's own routes, beside the common ones. */
export const KL_ERROR_CAUSES = {
  listQuery: {
    name: 'invalid_query',
    error: GatewayError.invalid(`pageSize must be an integer from 1 to ${KL_PAGE_MAX}.`, 'pageSize'),
    when: 'A query parameter breaks the paging rules (`param` names it).',
  },
  sessionNotFound: {
    name: 'session_not_found',
    error: klNotFound('session_id'),
    when: 'The account has no session with this session_id.',
  },
  voiceNotFound: {
    name: 'voice_not_found',
    error: klNotFound('voice_id'),
    when: 'The account has no custom voice with this voice_id.',
  },
  videoNotFound: {
    name: 'video_not_found',
    error: klNotFound('video_id'),
    when: 'The account has no generated video with this video_id.',
  },
  sessionBusy: {
    name: 'session_busy',
    error: klSessionBusy(),
    when: 'Another call on the same session has not answered yet.',
  },
} satisfies Record<string, ErrorCause>;
