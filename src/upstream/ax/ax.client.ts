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
import { axAuthHeaders, axCreateHeaders, axOperation } from './ax.api';
import { AX_REFUSALS } from './ax.error';
import { toAxSnapshot } from './ax.fetch';
import { throwIfAxTaskLost } from './ax.lost';
import { readAxCreated, toAxCreateBody } from './ax.submit';

/**
 * Family B upstream client: reference-to-video (`r2v`), both request protocols, and the vendor's cancel. No upstream
 * callbacks: the worker polls.
 */
@Injectable()
export class AxClient implements UpstreamTaskClient {
  readonly family = 'ax' as const;

  constructor(private readonly transport: UpstreamTransport) {}

  async submit(
    channel: UpstreamChannel,
    operation: string,
    body: Record<string, unknown>,
    options: SubmitOptions = {},
  ): Promise<UpstreamSubmitResult> {
    const endpoints = axOperation(operation);
    const response = await this.transport.send(channel, {
      method: 'POST',
      path: endpoints.createPath,
      body: toAxCreateBody(body, channel),
      headers: axCreateHeaders(requireApiKey(channel)),
      timing: options.timing,
    });
    throwUnlessSuccess(response, 'create', channel, AX_REFUSALS);
    return readAxCreated(response.body, channel);
  }

  /** Throws `UpstreamTaskLostError` when the upstream answers `task_status: UNKNOWN` (invalid or expired task ID). */
  async fetch(
    channel: UpstreamChannel,
    operation: string,
    upstreamTaskId: string,
    options: FetchOptions = {},
  ): Promise<UpstreamTaskSnapshot> {
    const endpoints = axOperation(operation);
    const response = await this.transport.send(channel, {
      method: 'GET',
      path: endpoints.queryPath(upstreamTaskId),
      headers: axAuthHeaders(requireApiKey(channel)),
      timing: options.timing,
    });
    throwUnlessSuccess(response, 'fetch', channel, AX_REFUSALS);
    const snapshot = toAxSnapshot(response.body);
    throwIfAxTaskLost(snapshot, channel);
    return snapshot;
  }

  /** `POST /api/v1/tasks/{id}/cancel`: the vendor cancels a `PENDING` task; any other state is refused with a 4xx. */
  async cancel(
    channel: UpstreamChannel,
    operation: string,
    upstreamTaskId: string,
    options: CancelOptions = {},
  ): Promise<void> {
    const response = await this.transport.send(channel, {
      method: 'POST',
      path: axOperation(operation).cancelPath(upstreamTaskId),
      headers: axAuthHeaders(requireApiKey(channel)),
      timing: options.timing,
    });
    throwUnlessSuccess(response, 'cancel', channel, AX_REFUSALS);
  }
}
