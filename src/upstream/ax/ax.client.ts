import { Injectable } from '@nestjs/common';
import { requireApiKey } from '../http/credentials';
import { UpstreamTransport } from '../http/upstream-transport';
import {
  CancellableTaskClient,
  CancellableTaskEndpoints,
  VendorTaskProtocol,
  plainAnswer,
} from '../http/vendor-task-client';
import { axAuthHeaders, axCreateHeaders, axOperation } from './ax.api';
import { AX_REFUSALS } from './ax.error';
import { toAxSnapshot } from './ax.fetch';
import { throwIfAxTaskLost } from './ax.lost';
import { readAxCreated, toAxCreateBody } from './ax.submit';

/** What is ax's own in the shared task client: a bearer key, and the async header on creates only. */
export const AX_PROTOCOL: VendorTaskProtocol<unknown, CancellableTaskEndpoints> = {
  family: 'ax',
  endpoints: axOperation,
  headers: (channel, kind) => (kind === 'create' ? axCreateHeaders : axAuthHeaders)(requireApiKey(channel)),
  createBody: (body, channel) => toAxCreateBody(body, channel),
  answer: plainAnswer(AX_REFUSALS),
  readCreated: (payload, _raw, channel) => readAxCreated(payload, channel),
  // `task_status: UNKNOWN` is the vendor saying the task ID is invalid or expired: `UpstreamTaskLostError`.
  readTask: (payload, _raw, channel) => {
    const snapshot = toAxSnapshot(payload);
    throwIfAxTaskLost(snapshot, channel);
    return snapshot;
  },
};

/**
 * ax upstream client: reference-to-video (`r2v`), both request protocols, and the vendor's cancel
 * (`POST /api/v1/tasks/{id}/cancel`: a `PENDING` task only; any other state is refused with a 4xx).
 * No upstream callbacks: the worker polls.
 */
@Injectable()
export class AxClient extends CancellableTaskClient {
  constructor(transport: UpstreamTransport) {
    super(transport, AX_PROTOCOL);
  }
}
