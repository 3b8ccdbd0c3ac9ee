import { Injectable } from '@nestjs/common';
import { applyModelMap } from '../http/model-map';
import { UpstreamTransport } from '../http/upstream-transport';
import { VendorTaskClient, VendorTaskProtocol } from '../http/vendor-task-client';
import {
  FetchOptions,
  UpstreamChannel,
  UpstreamRejectedError,
  UpstreamTaskNotFoundError,
  UpstreamTaskSnapshot,
  UpstreamTiming,
  UpstreamUnavailableError,
} from '../upstream.types';
import { KlCallPath, KlTaskEndpoints, klAuthHeaders, klOperation } from './kl.api';
import { KlAuth } from './kl.auth';
import { KlEnvelopeData, klEnvelopeData } from './kl.envelope';
import { toKlSnapshot } from './kl.fetch';
import { pickTaskByExternalId } from './kl.lookup';
import { readKlCreated, toKlCreateBody } from './kl.submit';
import { klCallData } from './kl.voices';

export interface KlCallOptions {
  timing?: UpstreamTiming;
}

/**
 * What is kl's own in the shared task client: a bearer token (the API key, or a JWT signed with the
 * channel's key pair), and every answer an envelope `{code, message, request_id, data}`.
 */
export function klProtocol(auth: KlAuth): VendorTaskProtocol<KlEnvelopeData, KlTaskEndpoints> {
  return {
    family: 'kl',
    endpoints: klOperation,
    headers: (channel) => klAuthHeaders(auth.tokenFor(channel)),
    createBody: toKlCreateBody,
    answer: klEnvelopeData,
    readCreated: ({ data }, raw, channel, options) => readKlCreated(data, raw, channel, options.clientReference),
    readTask: ({ data }, raw) => toKlSnapshot(data, raw),
  };
}

/** kl upstream client: editing tasks (`multi_elements`), custom voices (`custom_voices`) and the non-task endpoints. */
@Injectable()
export class KlClient extends VendorTaskClient<KlEnvelopeData, KlTaskEndpoints> {
  constructor(transport: UpstreamTransport, auth: KlAuth) {
    super(transport, klProtocol(auth));
  }

  /**
   * `upstreamTaskId` may also be the `external_task_id` sent at creation (`clientReference`): the
   * recovery of unconfirmed creations looks tasks up that way. The documented path form is asked
   * first; when it finds nothing, the query-parameter form, before the task counts as not found.
   */
  override async fetch(
    channel: UpstreamChannel,
    operation: string,
    upstreamTaskId: string,
    options: FetchOptions = {},
  ): Promise<UpstreamTaskSnapshot> {
    const endpoints = klOperation(operation);
    try {
      return await super.fetch(channel, operation, upstreamTaskId, options);
    } catch (error) {
      if (!(error instanceof UpstreamTaskNotFoundError)) throw error;
      const found = await this.fetchByExternalIdQuery(channel, endpoints, upstreamTaskId, options);
      if (found) return found;
      throw error;
    }
  }

  /** Undefined when this form finds nothing too (or the upstream refuses the form itself). */
  private async fetchByExternalIdQuery(
    channel: UpstreamChannel,
    endpoints: KlTaskEndpoints,
    externalTaskId: string,
    options: FetchOptions,
  ): Promise<UpstreamTaskSnapshot | undefined> {
    const { path, query } = endpoints.referenceQuery(externalTaskId);
    try {
      const { payload, raw } = await this.exchange(channel, 'fetch', { method: 'GET', path, query }, options.timing);
      const task = pickTaskByExternalId(payload.data, externalTaskId);
      return task ? toKlSnapshot(task, raw) : undefined;
    } catch (error) {
      if (error instanceof UpstreamTaskNotFoundError || error instanceof UpstreamRejectedError) return undefined;
      throw error;
    }
  }

  /**
   * A non-task call (sessions, preset voices, voice deletion): POST sends `payload` as the JSON
   * body, GET as query parameters (e.g. `{pageNum, pageSize}`). Returns the envelope's `data` as
   * received, unchecked, except that official preset voices are relabelled `owned_by: "kl"`.
   * Throws `UpstreamRejectedError` on a refusal (a 404 too: a session or voice the upstream does
   * not know), `UpstreamUnavailableError` on faults and on an answer that is not an envelope,
   * `UpstreamOutcomeUnknownError` when a POST got no answer.
   */
  async call<T = Record<string, unknown>>(
    channel: UpstreamChannel,
    method: 'GET' | 'POST',
    path: KlCallPath,
    payload: Record<string, unknown> = {},
    options: KlCallOptions = {},
  ): Promise<T> {
    const request = method === 'GET' ? { query: toQuery(payload) } : { body: applyModelMap(payload, channel) };
    const answer = await this.exchange(channel, 'call', { method, path, ...request }, options.timing);
    const { envelope, data } = answer.payload;
    if (!envelope)
      throw new UpstreamUnavailableError(
        `Upstream channel ${channel.id} answered ${method} ${path} without a kl envelope.`,
      );
    return klCallData(path, data) as T;
  }
}

function toQuery(payload: Record<string, unknown>): Record<string, string | number | boolean | undefined> {
  const query: Record<string, string | number | boolean | undefined> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') query[key] = value;
  }
  return query;
}
