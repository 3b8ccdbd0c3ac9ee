import type { NativeError } from '../http/answer-errors';
import { asNonEmptyString, asString, isRecord } from '../http/lenient';

/** Family B error body: `{request_id, code, message}` with a string code such as `InvalidParameter`. */
export function readAxError(body: unknown): Partial<NativeError> | undefined {
  if (!isRecord(body)) return undefined;
  return { code: asNonEmptyString(body.code), message: asString(body.message) };
}
