import { Injectable } from '@nestjs/common';
import { applyModelMap } from '../http/model-map';
import { UpstreamTransport } from '../http/upstream-transport';
import {
  FetchOptions,
  SubmitOptions,
  UpstreamChannel,
  UpstreamSubmitResult,
  UpstreamRejectedError,
  UpstreamTaskClient,
  UpstreamTaskNotFoundError,
  UpstreamTaskSnapshot,
  UpstreamTiming,
  UpstreamUnavailableError,
} from '../upstream.types';
import { KlCallPath, KlTaskEndpoints, klAuthHeaders, klOperation } from './kl.api';
import { KlAuth } from './kl.auth';
import { klEnvelopeData } from './kl.envelope';
import { toKlSnapshot } from './kl.fetch';
import { pickTaskByExternalId } from './kl.lookup';
import { readKlCreated, toKlCreateBody } from './kl.submit';
import { klCallData } from './kl.voices';

export interface KlCallOptions {
  timing?: UpstreamTiming;
}

/** Family A upstream client: editing tasks (`multi_elements`), custom voices (`custom_voices`) and the non-task endpoints. */
@Injectable()
export class KlClient implements UpstreamTaskClient {
  readonly family = 'kl' as const;

  constructor(
    private readonly transport: UpstreamTransport,
    private readonly auth: KlAuth,
  ) {}

  async submit(
    channel: UpstreamChannel,
    operation: string,
    body: Record<string, unknown>,
    options: SubmitOptions = {},
  ): Promise<UpstreamSubmitResult> {
    const endpoints = klOperation(operation);
    const response = await this.transport.send(channel, {
      method: 'POST',
      path: endpoints.createPath,
      body: toKlCreateBody(body, channel, options),
      headers: klAuthHeaders(this.auth.tokenFor(channel)),
      timing: options.timing,
    });
    const { data } = klEnvelopeData(response, 'create', channel);
    return readKlCreated(data, response.body, channel, options.clientReference);
  }

  /**
   * `upstreamTaskId` may also be the `external_task_id` sent at creation (`clientReference`): the
   * recovery of unconfirmed creations looks tasks up that way. The documented path form is asked
   * first; when it finds nothing, the query-parameter form, before the task counts as not found.
   */
  async fetch(
    channel: UpstreamChannel,
    operation: string,
    upstreamTaskId: string,
    options: FetchOptions = {},
  ): Promise<UpstreamTaskSnapshot> {
    const endpoints = klOperation(operation);
    try {
      return await this.fetchByPath(channel, endpoints, upstreamTaskId, options);
    } catch (error) {
      if (!(error instanceof UpstreamTaskNotFoundError)) throw error;
      const found = await this.fetchByExternalIdQuery(channel, endpoints, upstreamTaskId, options);
      if (found) return found;
      throw error;
    }
  }

  private async fetchByPath(
    channel: UpstreamChannel,
    endpoints: KlTaskEndpoints,
    id: string,
    options: FetchOptions,
  ): Promise<UpstreamTaskSnapshot> {
    const response = await this.transport.send(channel, {
      method: 'GET',
      path: endpoints.queryPath(id),
      headers: klAuthHeaders(this.auth.tokenFor(channel)),
      timing: options.timing,
    });
    const { data } = klEnvelopeData(response, 'fetch', channel);
    return toKlSnapshot(data, response.body);
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
      const response = await this.transport.send(channel, {
        method: 'GET',
        path,
        query,
        headers: klAuthHeaders(this.auth.tokenFor(channel)),
        timing: options.timing,
      });
      const task = pickTaskByExternalId(klEnvelopeData(response, 'fetch', channel).data, externalTaskId);
      return task ? toKlSnapshot(task, response.body) : undefined;
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
    const response = await this.transport.send(channel, {
      method,
      path,
      ...(method === 'GET' ? { query: toQuery(payload) } : { body: applyModelMap(payload, channel) }),
      headers: klAuthHeaders(this.auth.tokenFor(channel)),
      timing: options.timing,
    });
    const { envelope, data } = klEnvelopeData(response, 'call', channel);
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
