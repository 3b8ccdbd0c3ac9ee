import type { FamilyId } from '../models/model-catalogue';
import type { UpstreamChannel, UpstreamTaskClient } from '../../upstream/upstream.types';

/**
 * What one create call says about where its task may go next: `accepted`; `refused` (surely not
 * taken upstream: another channel may be tried); `out-of-balance` (refused because the channel's
 * account is empty: likewise); `credentials-refused` (refused because the upstream refused the
 * channel's own credentials: likewise); `final` (a verdict on the request, or an unknown outcome:
 * the task must never be sent anywhere else).
 */
export type CreateOutcome = 'accepted' | 'refused' | 'out-of-balance' | 'credentials-refused' | 'final';

/** Where the engine finds a channel and the client that speaks its protocol. */
export abstract class UpstreamDirectory {
  /**
   * The channel for a new task of `model` (never one of `exclude`: channels the request already
   * tried), or null when no channel can take it.
   */
  abstract pick(family: FamilyId, model?: string, exclude?: readonly string[]): UpstreamChannel | null;
  abstract channel(id: string): UpstreamChannel | undefined;
  abstract client(family: FamilyId): UpstreamTaskClient;

  /** A task now open on the channel counts towards its in-flight tasks. */
  taskOpened(_channelId: string): void {}

  /** A task left the channel before the upstream took it (refused, moved to another channel). */
  taskClosed(_channelId: string): void {}

  /** Records one create call on its channel and says where its task may go next. */
  createEnded(_channel: UpstreamChannel, _latencyMs: number, error?: unknown): CreateOutcome {
    return error === undefined ? 'accepted' : 'final';
  }

  /** Records how a call about an existing task (a query, a cancel) ended on its channel (answered, or failed with `error`). */
  queryEnded(_channel: UpstreamChannel, _error?: unknown): void {}
}
