import {
  CancelOptions,
  FetchOptions,
  SubmitOptions,
  UpstreamChannel,
  UpstreamFamily,
  UpstreamOutcomeUnknownError,
  UpstreamSubmitResult,
  UpstreamTaskClient,
  UpstreamTaskSnapshot,
  UpstreamTiming,
} from '../upstream.types';
import { CallKind, VendorRefusals, throwUnlessSuccess } from './answer-errors';
import type { UpstreamRequest, UpstreamResponse, UpstreamTransport } from './upstream-transport';

/** Where one task operation of a vendor lives, below the channel's base URL. */
export interface TaskEndpoints {
  readonly createPath: string;
  readonly queryPath: (taskId: string) => string;
}

/** The endpoints of an operation the vendor can also cancel. */
export interface CancellableTaskEndpoints extends TaskEndpoints {
  readonly cancelPath: (taskId: string) => string;
}

/**
 * What one vendor's task client is made of, and all that differs between vendors: its paths, its
 * headers, its create body, how it words a refusal, how its answers read. `P` is what an answer
 * carries once checked (the body, or what the vendor's envelope holds); the readers get it together
 * with the body as received.
 */
export interface VendorTaskProtocol<P = unknown, E extends TaskEndpoints = TaskEndpoints> {
  readonly family: UpstreamFamily;
  /** The operation's endpoints; throws for an operation the vendor does not have. */
  readonly endpoints: (operation: string) => E;
  /** Auth and protocol headers of one kind of call (evaluated per call: a token may be renewed). */
  readonly headers: (channel: UpstreamChannel, kind: CallKind) => Record<string, string>;
  /** The caller's wire body -> what goes upstream. */
  readonly createBody: (
    body: Record<string, unknown>,
    channel: UpstreamChannel,
    options: SubmitOptions,
  ) => Record<string, unknown>;
  /** Throws the upstream failure an answer means; otherwise returns what it carries. */
  readonly answer: (response: UpstreamResponse, kind: CallKind, channel: UpstreamChannel) => P;
  readonly readCreated: (
    payload: P,
    raw: unknown,
    channel: UpstreamChannel,
    options: SubmitOptions,
  ) => UpstreamSubmitResult;
  /** A task query's answer -> snapshot (may throw, e.g. for a task the vendor says is lost). */
  readonly readTask: (payload: P, raw: unknown, channel: UpstreamChannel) => UpstreamTaskSnapshot;
  /** The body of a cancel, for a vendor that wants one. */
  readonly cancelBody?: (upstreamTaskId: string) => unknown;
}

/** The `answer` of a vendor whose 2xx body is the payload: non-2xx answers become the failure types. */
export function plainAnswer(refusals: VendorRefusals): VendorTaskProtocol['answer'] {
  return (response, kind, channel) => {
    throwUnlessSuccess(response, kind, channel, refusals);
    return response.body;
  };
}

/** A create the upstream accepted without a task ID to follow it by: nobody can find the task again. */
export function acceptedWithoutTaskId(channel: UpstreamChannel): UpstreamOutcomeUnknownError {
  return new UpstreamOutcomeUnknownError(
    `Upstream channel ${channel.id} accepted the task but its answer carries no task ID.`,
  );
}

/** One call as the shared wire sends it, without the vendor's headers and the caller's timing. */
export type VendorRequest = Omit<UpstreamRequest, 'headers' | 'timing'>;

/**
 * The task client every vendor shares: create (`POST` to the operation's path), query (`GET` of the
 * task), each through `UpstreamTransport` (time limits, breaker, retries, metrics, spans), its answer
 * checked by the vendor's `answer` and read by its readers. A vendor's client extends it and passes
 * its `VendorTaskProtocol`; `CancellableTaskClient` adds the vendor's cancel.
 */
export class VendorTaskClient<P = unknown, E extends TaskEndpoints = TaskEndpoints> implements UpstreamTaskClient {
  readonly family: UpstreamFamily;

  constructor(
    protected readonly transport: UpstreamTransport,
    protected readonly protocol: VendorTaskProtocol<P, E>,
  ) {
    this.family = protocol.family;
  }

  async submit(
    channel: UpstreamChannel,
    operation: string,
    body: Record<string, unknown>,
    options: SubmitOptions = {},
  ): Promise<UpstreamSubmitResult> {
    const endpoints = this.protocol.endpoints(operation);
    const request: VendorRequest = {
      method: 'POST',
      path: endpoints.createPath,
      body: this.protocol.createBody(body, channel, options),
    };
    const { payload, raw } = await this.exchange(channel, 'create', request, options.timing);
    return this.protocol.readCreated(payload, raw, channel, options);
  }

  async fetch(
    channel: UpstreamChannel,
    operation: string,
    upstreamTaskId: string,
    options: FetchOptions = {},
  ): Promise<UpstreamTaskSnapshot> {
    const path = this.protocol.endpoints(operation).queryPath(upstreamTaskId);
    const { payload, raw } = await this.exchange(channel, 'fetch', { method: 'GET', path }, options.timing);
    return this.protocol.readTask(payload, raw, channel);
  }

  /** Sends one call with the vendor's headers; returns the checked payload and the body as received. */
  protected async exchange(
    channel: UpstreamChannel,
    kind: CallKind,
    request: VendorRequest,
    timing: UpstreamTiming | undefined,
  ): Promise<{ payload: P; raw: unknown }> {
    const response = await this.transport.send(channel, {
      ...request,
      headers: this.protocol.headers(channel, kind),
      timing,
    });
    return { payload: this.protocol.answer(response, kind, channel), raw: response.body };
  }
}

/** A vendor's task client with the vendor's own cancel (`POST` to the task's cancel path). */
export class CancellableTaskClient<P = unknown> extends VendorTaskClient<P, CancellableTaskEndpoints> {
  async cancel(
    channel: UpstreamChannel,
    operation: string,
    upstreamTaskId: string,
    options: CancelOptions = {},
  ): Promise<void> {
    const path = this.protocol.endpoints(operation).cancelPath(upstreamTaskId);
    const body = this.protocol.cancelBody?.(upstreamTaskId);
    const request: VendorRequest = body === undefined ? { method: 'POST', path } : { method: 'POST', path, body };
    await this.exchange(channel, 'cancel', request, options.timing);
  }
}
