import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { GatewayError } from '../../platform/errors';
import { addUpstreamTime, RequestContext } from '../../platform/http/request-context';
import { UpstreamRejectedError, UpstreamTaskNotFoundError } from '../../upstream/upstream.types';
import { AuditTrail } from '../audit/audit.service';
import { AuditChange, ChangeOrigin } from '../audit/audit.types';
import { TaskEntity } from './entities/task.entity';
import { TaskFamilies } from './task-families';
import { TaskLifecycle } from './task-lifecycle.service';
import { isTerminal } from './task-status';
import { UpstreamDirectory } from './upstream-directory';

/** Who asks for a cancel: the task's owner (through its API key), or an operator (recorded in the audit trail). */
export type CancelRequester = { kind: 'owner' } | { kind: 'operator'; origin: ChangeOrigin };

/** What a cancel did: `cancelled` now, or the task had been cancelled before (nothing changed). */
export interface CancelResult {
  task: TaskEntity;
  alreadyCancelled: boolean;
}

/**
 * Cancelling a task, whoever asks: the vendor is asked first, and only once it has cancelled the
 * task is the task ended `cancelled` (hold released in full, slot freed, client callback queued,
 * and an operator's audit entry, in one transaction). Where the vendor cannot cancel it (no cancel
 * at all, or not in the task's state), nothing changes and the caller is told why (409
 * `cannot_cancel`). Cancelling a cancelled task again answers it as it is; a task that ended
 * otherwise cannot be cancelled. An ending that arrives from the sync worker at the same moment is
 * settled once: the terminal switch lets one of them through.
 */
@Injectable()
export class TaskCancellation {
  constructor(
    private readonly lifecycle: TaskLifecycle,
    private readonly upstreams: UpstreamDirectory,
    private readonly families: TaskFamilies,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {}

  /** `context`: the asking request's, for its Server-Timing. */
  async cancel(task: TaskEntity, by: CancelRequester, context?: RequestContext): Promise<CancelResult> {
    if (task.phase === 'cancelled') {
      // Like every change request, an operator's repeat is recorded, its `before` equal to its `after`.
      if (by.kind === 'operator')
        await this.transactions.run((tx) => this.audit.record(tx, by.origin, auditEntry(task)));
      return { task, alreadyCancelled: true };
    }
    if (isTerminal(task.phase)) throw cannotCancel(`The task already ended: ${task.phase}.`);
    if (task.phase === 'submitting' || !task.upstreamTaskId)
      throw cannotCancel('The upstream has not confirmed the task yet; try again in a moment.');
    const channel = this.upstreams.channel(task.channelId);
    if (!channel) throw cannotCancel(`The task's upstream channel '${task.channelId}' is no longer configured.`);
    const client = this.upstreams.client(task.family);
    if (!client.cancel) throw cannotCancel("The task's upstream offers no way to cancel a task.");

    const operation = this.families.upstreamOperation(task.family, task.action);
    const timing = { upstreamMs: 0 };
    try {
      await client.cancel(channel, operation, task.upstreamTaskId, { timing });
      this.upstreams.queryEnded(channel);
    } catch (error) {
      this.upstreams.queryEnded(channel, error);
      throw refusalOf(error);
    } finally {
      addUpstreamTime(context, timing.upstreamMs);
    }

    const reason =
      by.kind === 'owner'
        ? "The task was cancelled at its owner's request; nothing was charged."
        : 'The task was cancelled by an operator; nothing was charged.';
    // Taken before the ending changes the record: the entry's `before` is the task as it was.
    const entry = auditEntry(task);
    const record = async (tx: EntityManager): Promise<void> => {
      if (by.kind === 'operator') await this.audit.record(tx, by.origin, entry);
    };
    const { task: ended, ended: byThisCall } = await this.lifecycle.cancel(task, reason, record);
    if (byThisCall) return { task: ended, alreadyCancelled: false };
    // The vendor has cancelled it, so whoever ended it first (the sync worker reading the vendor's
    // own cancelled state) ended it cancelled too: the cancel was still this caller's, and recorded.
    if (ended.phase === 'cancelled') {
      await this.transactions.run(record);
      return { task: ended, alreadyCancelled: false };
    }
    // A vendor that finished a task after accepting its cancel: the ending stands as settled.
    throw cannotCancel(`The task already ended: ${ended.phase}.`);
  }
}

/** The audit entry of an operator's cancel: the task's status and billing before and after. */
function auditEntry(task: TaskEntity): AuditChange {
  return {
    action: 'task.cancel',
    target: { type: 'task', id: task.id, accountId: task.accountId },
    before: { status: task.phase, billing_state: task.billingState },
    after: { status: 'cancelled', billing_state: 'released' },
  };
}

function cannotCancel(message: string): GatewayError {
  return new GatewayError(409, 'cannot_cancel', message);
}

/**
 * The vendor's refusal of the cancel itself, as the caller's answer: its own reason (the task is
 * past the state it can be cancelled in) is a 409; a task it does not know any more cannot be
 * cancelled either; a vendor that is unreachable, failing or refusing our credentials is a 503
 * (nothing changed, a retry may work).
 */
function refusalOf(error: unknown): GatewayError {
  // A refused credential is an UpstreamUnavailableError, never a rejection, and a throttled call is no verdict
  // on the task: both fall through to the 503.
  if (error instanceof UpstreamRejectedError && error.httpStatus !== 429)
    return cannotCancel(`The upstream cannot cancel the task in its current state: ${error.message}`);
  if (error instanceof UpstreamTaskNotFoundError) return cannotCancel('The upstream no longer knows the task.');
  return GatewayError.unavailable('The upstream could not be reached to cancel the task; nothing was changed.');
}
