import { Injectable } from '@nestjs/common';
import { throwUnlessSuccess } from '../http/answer-errors';
import { requireApiKey } from '../http/credentials';
import { UpstreamTransport } from '../http/upstream-transport';
import {
  CancelOptions,
  FetchOptions,
  SubmitOptions,
  UpstreamChannel,
  UpstreamSubmitResult,
  UpstreamTaskClient,
  UpstreamTaskSnapshot,
} from '../upstream.types';
import { vdAuthHeaders, vdOperation } from './vd.api';
import { VD_REFUSALS } from './vd.error';
import { toVdSnapshot } from './vd.fetch';
import { readVdCreated, toVdCreateBody } from './vd.submit';

/** Family C upstream client: reference-to-video (`reference2video`), subject and non-subject mode, and the vendor's cancel. */
@Injectable()
export class VdClient implements UpstreamTaskClient {
  readonly family = 'vd' as const;

  constructor(private readonly transport: UpstreamTransport) {}

  async submit(
    channel: UpstreamChannel,
    operation: string,
    body: Record<string, unknown>,
    options: SubmitOptions = {},
  ): Promise<UpstreamSubmitResult> {
    const endpoints = vdOperation(operation);
    const response = await this.transport.send(channel, {
      method: 'POST',
      path: endpoints.createPath,
      body: toVdCreateBody(body, channel, options),
      headers: vdAuthHeaders(requireApiKey(channel)),
      timing: options.timing,
    });
    throwUnlessSuccess(response, 'create', channel, VD_REFUSALS);
    return readVdCreated(response.body, channel);
  }

  async fetch(
    channel: UpstreamChannel,
    operation: string,
    upstreamTaskId: string,
    options: FetchOptions = {},
  ): Promise<UpstreamTaskSnapshot> {
    const endpoints = vdOperation(operation);
    const response = await this.transport.send(channel, {
      method: 'GET',
      path: endpoints.queryPath(upstreamTaskId),
      headers: vdAuthHeaders(requireApiKey(channel)),
      timing: options.timing,
    });
    throwUnlessSuccess(response, 'fetch', channel, VD_REFUSALS);
    return toVdSnapshot(response.body);
  }

  /**
   * `POST /ent/v2/tasks/{id}/cancel` with `{id}`: the vendor cancels a task not yet scheduled and answers `{}`;
   * later it refuses with 400 `BadRequest` ("task state is scheduled, can not cancel").
   */
  async cancel(
    channel: UpstreamChannel,
    operation: string,
    upstreamTaskId: string,
    options: CancelOptions = {},
  ): Promise<void> {
    const response = await this.transport.send(channel, {
      method: 'POST',
      path: vdOperation(operation).cancelPath(upstreamTaskId),
      body: { id: upstreamTaskId },
      headers: vdAuthHeaders(requireApiKey(channel)),
      timing: options.timing,
    });
    throwUnlessSuccess(response, 'cancel', channel, VD_REFUSALS);
  }
}
