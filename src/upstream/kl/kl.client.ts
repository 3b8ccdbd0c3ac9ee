import { Injectable } from '@nestjs/common';
import { applyModelMap } from '../http/model-map';
import { UpstreamTransport } from '../http/upstream-transport';
import {
  FetchOptions,
  SubmitOptions,
  UpstreamChannel,
  UpstreamSubmitResult,
  UpstreamTaskClient,
  UpstreamTaskSnapshot,
  UpstreamTiming,
  UpstreamUnavailableError,
} from '../upstream.types';
import { KlCallPath, klAuthHeaders, klOperation } from './kl.api';
import { KlAuth } from './kl.auth';
import { klEnvelopeData } from './kl.envelope';
import { toKlSnapshot } from './kl.fetch';
import { readKlCreated, toKlCreateBody } from './kl.submit';

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

  async submit(channel: UpstreamChannel, operation: string, body: Record<string, unknown>, options: SubmitOptions = {}): Promise<UpstreamSubmitResult> {
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

  /** `upstreamTaskId` may also be the `external_task_id` sent at creation (`clientReference`). */
  async fetch(channel: UpstreamChannel, operation: string, upstreamTaskId: string, options: FetchOptions = {}): Promise<UpstreamTaskSnapshot> {
    const endpoints = klOperation(operation);
    const response = await this.transport.send(channel, {
      method: 'GET',
      path: endpoints.queryPath(upstreamTaskId),
      headers: klAuthHeaders(this.auth.tokenFor(channel)),
      timing: options.timing,
    });
    const { data } = klEnvelopeData(response, 'fetch', channel);
    return toKlSnapshot(data, response.body);
  }

  /**
   * A non-task call (sessions, preset voices, voice deletion): POST sends `payload` as the JSON
   * body, GET as query parameters (e.g. `{pageNum, pageSize}`). Returns the envelope's `data` as
   * received, unchecked. Throws `UpstreamRejectedError` on a refusal (a 404 too: a session or voice
   * the upstream does not know), `UpstreamUnavailableError` on faults and on an answer that is not
   * an envelope, `UpstreamOutcomeUnknownError` when a POST got no answer.
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
    if (!envelope) throw new UpstreamUnavailableError(`Upstream channel ${channel.id} answered ${method} ${path} without a family A envelope.`);
    return data as T;
  }
}

function toQuery(payload: Record<string, unknown>): Record<string, string | number | boolean | undefined> {
  const query: Record<string, string | number | boolean | undefined> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') query[key] = value;
  }
  return query;
}
