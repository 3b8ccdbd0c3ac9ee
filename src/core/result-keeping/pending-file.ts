import type { TaskEntity } from '../tasks/entities/task.entity';
import { ResultFileEntity } from './result-file.entity';
import { resultFileId } from './result-slots';

/** A download as new: due at `now`, no attempt made, no lease, no copy, no error. */
export function freshDownload(now: number) {
  return {
    status: 'pending' as const,
    attempts: 0,
    nextAttemptAt: now,
    leaseOwner: null,
    leaseUntil: null,
    storageKey: null,
    sizeBytes: null,
    contentType: null,
    lastError: null,
    storedAt: null,
    expiresAt: null,
    updatedAt: now,
  } satisfies Partial<ResultFileEntity>;
}

/** A new download queue row for one file of a finished task, due at once. */
export function pendingFile(task: TaskEntity, slot: string, url: string, now: number): ResultFileEntity {
  return {
    id: resultFileId(task.id, slot),
    taskId: task.id,
    accountId: task.accountId,
    slot,
    upstreamUrl: url,
    traceContext: task.traceContext ?? null,
    createdAt: task.finishedAt ?? now,
    ...freshDownload(now),
  };
}
