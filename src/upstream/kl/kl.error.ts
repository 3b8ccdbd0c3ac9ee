import type { NativeError } from '../http/answer-errors';
import { asNumber, asString, isRecord } from '../http/lenient';

/** Envelope code the upstream uses for "no such resource" (task, session, voice): the only "not found". */
export const KL_NOT_FOUND_CODE = 1203;

/** Family A error body: the envelope `{code, message, request_id}` with a non-zero integer code. */
export function readKlError(body: unknown): Partial<NativeError> | undefined {
  if (!isRecord(body)) return undefined;
  const code = asNumber(body.code) ?? asString(body.code);
  return { code, message: asString(body.message) };
}

/** A task query's 404 means "not found" only with code 1203; 1202, or no family A body at all, is a rejection. */
export function isKlTaskNotFound(response: { status: number; body: unknown }): boolean {
  return response.status === 404 && readKlError(response.body)?.code === KL_NOT_FOUND_CODE;
}

/** Codes 5xxx are the upstream's own internal failures, not a verdict on the request. */
export function isKlServerCode(code: number): boolean {
  return code >= 5000 && code < 6000;
}
