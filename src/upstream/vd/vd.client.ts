import { Injectable } from '@nestjs/common';
import { requireApiKey } from '../http/credentials';
import { UpstreamTransport } from '../http/upstream-transport';
import {
  CancellableTaskClient,
  CancellableTaskEndpoints,
  VendorTaskProtocol,
  plainAnswer,
} from '../http/vendor-task-client';
import { vdAuthHeaders, vdOperation } from './vd.api';
import { VD_REFUSALS } from './vd.error';
import { toVdSnapshot } from './vd.fetch';
import { readVdCreated, toVdCreateBody } from './vd.submit';

/** What is vd's own in the shared task client: `Token` auth, and its cancel's body `{id}`. */
export const VD_PROTOCOL: VendorTaskProtocol<unknown, CancellableTaskEndpoints> = {
  family: 'vd',
  endpoints: vdOperation,
  headers: (channel) => vdAuthHeaders(requireApiKey(channel)),
  createBody: toVdCreateBody,
  answer: plainAnswer(VD_REFUSALS),
  readCreated: (payload, _raw, channel) => readVdCreated(payload, channel),
  readTask: (payload) => toVdSnapshot(payload),
  cancelBody: (id) => ({ id }),
};

/**
 * vd upstream client: reference-to-video (`reference2video`), subject and non-subject mode, and the
 * vendor's cancel (`POST /ent/v2/tasks/{id}/cancel` with `{id}`: the vendor cancels a task not yet
 * scheduled and answers `{}`; later it refuses with 400 `BadRequest`, "task state is scheduled, can
 * not cancel").
 */
@Injectable()
export class VdClient extends CancellableTaskClient {
  constructor(transport: UpstreamTransport) {
    super(transport, VD_PROTOCOL);
  }
}
