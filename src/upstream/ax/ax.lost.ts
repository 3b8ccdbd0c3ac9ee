import { UpstreamChannel, UpstreamTaskLostError, UpstreamTaskSnapshot } from '../upstream.types';
import { AX_LOST_STATUS, normaliseAxStatus } from './ax.status';

/** What the caller is told when the task ends this way. */
export const AX_LOST_REASON =
  'The upstream no longer knows this task (task_status UNKNOWN: the task ID is invalid or expired).';

/**
 * A query answered `task_status: UNKNOWN` is the vendor saying the task ID is invalid or has expired:
 * the task is lost, not merely in an unknown state. Throws `UpstreamTaskLostError` for it.
 */
export function throwIfAxTaskLost(snapshot: UpstreamTaskSnapshot, channel: UpstreamChannel): void {
  if (normaliseAxStatus(snapshot.nativeStatus.trim()) !== AX_LOST_STATUS) return;
  throw new UpstreamTaskLostError(
    `Upstream channel ${channel.id} answered task_status ${AX_LOST_STATUS} for the task.`,
    AX_LOST_REASON,
    AX_LOST_STATUS,
  );
}
