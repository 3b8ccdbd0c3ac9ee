import type { NativeError, VendorRefusals } from '../http/answer-errors';
import { asNumber, asString, isRecord } from '../http/lenient';

/** Envelope code the upstream uses for "no such resource" (task, session, voice): the only "not found". */
export const KL_NOT_FOUND_CODE = 1203;

/** kl error body: the envelope `{code, message, request_id}` with a non-zero integer code. */
export function readKlError(body: unknown): Partial<NativeError> | undefined {
  if (!isRecord(body)) return undefined;
  const code = asNumber(body.code) ?? asString(body.code);
  return { code, message: asString(body.message) };
}

/** A task query's 404 means "not found" only with code 1203; 1202, or no kl body at all, is a rejection. */
export function isKlTaskNotFound(response: { status: number; body: unknown }): boolean {
  return response.status === 404 && readKlError(response.body)?.code === KL_NOT_FOUND_CODE;
}

/** Codes 5xxx are the upstream's own internal failures, not a verdict on the request. */
export function isKlServerCode(code: number): boolean {
  return code >= 5000 && code < 6000;
}

/** Codes 1000-1004: authentication failed, header empty or invalid, token not yet valid or expired. */
function isKlAuthCode(code: number): boolean {
  return code >= 1000 && code <= 1004;
}

/**
 * kl's refusals: 1000-1004 (401: the key or token) and 1103 (403: a resource the account may not
 * use) refuse the channel's credentials, wherever the envelope carries them; 1101 (in arrears) and 1102
 * (resource pack used up) are its account out of balance.
 */
export const KL_REFUSALS: VendorRefusals = {
  read: readKlError,
  refusesCredentials: (code) => typeof code === 'number' && (isKlAuthCode(code) || code === 1103),
  outOfBalanceCodes: [1101, 1102],
};
