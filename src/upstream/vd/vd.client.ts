import { Injectable } from '@nestjs/common';
import { throwUnlessSuccess } from '../http/answer-errors';
import { requireApiKey } from '../http/credentials';
import { UpstreamTransport } from '../http/upstream-transport';
import {
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

/** Family C upstream client: reference-to-video (`reference2video`), subject and non-subject mode. */
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
}
