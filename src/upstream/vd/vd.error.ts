import type { NativeError, VendorRefusals } from '../http/answer-errors';
import { asNonEmptyString, asNumber, asString, isRecord } from '../http/lenient';

/**
 * vd error body: `{code: <http status>, reason, message, metadata: {trace_id}}`. The `reason`
 * word (`BadRequest`, `TaskNotFound`...) is the native code; `code` only repeats the HTTP status.
 */
export function readVdError(body: unknown): Partial<NativeError> | undefined {
  if (!isRecord(body)) return undefined;
  return { code: asNonEmptyString(body.reason) ?? asNumber(body.code), message: asString(body.message) };
}

/**
 * vd's refusals: `Unauthorized` (401) and `Forbidden` (403) refuse the channel's token;
 * `CreditInsufficient` (a 403 too) is its account out of credit.
 */
export const VD_REFUSALS: VendorRefusals = {
  read: readVdError,
  refusesCredentials: (code) => code === 'Unauthorized' || code === 'Forbidden',
  outOfBalanceCodes: ['CreditInsufficient'],
};
