import { CallKind, rejection, throwUnlessSuccess } from '../http/answer-errors';
import { asNumber, asString, isRecord } from '../http/lenient';
import type { UpstreamResponse } from '../http/upstream-transport';
import { UpstreamChannel, UpstreamTaskNotFoundError, UpstreamUnavailableError } from '../upstream.types';
import { KL_NOT_FOUND_CODE, KL_REFUSALS, isKlServerCode, isKlTaskNotFound } from './kl.error';

/** What a checked answer carries: whether it was an envelope at all, and its `data`. */
export interface KlEnvelopeData {
  envelope: boolean;
  data: unknown;
}

/**
 * Unwraps the kl envelope `{code, message, request_id, data}`. HTTP errors and a non-zero
 * `code` inside a 2xx answer become the typed errors. Returns `data`, or undefined when the answer
 * is not an envelope at all (the caller decides how lenient to be about that).
 */
export function klEnvelopeData(response: UpstreamResponse, kind: CallKind, channel: UpstreamChannel): KlEnvelopeData {
  throwUnlessSuccess(response, kind, channel, KL_REFUSALS, isKlTaskNotFound);
  const body = response.body;
  if (!isRecord(body)) return { envelope: false, data: undefined };
  const code = asNumber(body.code);
  if (code !== undefined && code !== 0) {
    if (code === KL_NOT_FOUND_CODE && kind === 'fetch')
      throw new UpstreamTaskNotFoundError(`The task is unknown to upstream channel ${channel.id}.`);
    if (isKlServerCode(code))
      throw new UpstreamUnavailableError(`Upstream channel ${channel.id} reported an internal error (code ${code}).`);
    throw rejection(400, { code, message: asString(body.message) }, channel, KL_REFUSALS);
  }
  return { envelope: true, data: body.data };
}
