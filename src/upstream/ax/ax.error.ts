import type { NativeError, VendorRefusals } from '../http/answer-errors';
import { asNonEmptyString, asString, isRecord } from '../http/lenient';

/** ax error body: `{request_id, code, message}` with a string code such as `InvalidParameter`. */
export function readAxError(body: unknown): Partial<NativeError> | undefined {
  if (!isRecord(body)) return undefined;
  return { code: asNonEmptyString(body.code), message: asString(body.message) };
}

/**
 * ax's refusals: `InvalidApiKey` (401) and `AccessDenied*` (403, also a model the account has not
 * opened) refuse the channel's key; `Arrearage` (400) is its account out of balance.
 */
export const AX_REFUSALS: VendorRefusals = {
  read: readAxError,
  refusesCredentials: (code) => code === 'InvalidApiKey' || String(code).startsWith('AccessDenied'),
  outOfBalanceCodes: ['Arrearage'],
};
