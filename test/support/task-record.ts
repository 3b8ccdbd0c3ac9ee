import { TaskEntity } from '../../src/core/tasks/entities/task.entity';

/**
 * A task record with every column set, as the engine writes it at creation (submitting, estimate
 * held, no upstream ID yet); `overrides` sets what a test cares about.
 */
export function taskRecord(overrides: Partial<TaskEntity> = {}): TaskEntity {
  const now = overrides.createdAt ?? Date.now();
  return Object.assign(
    new TaskEntity(),
    {
      id: 'task_1',
      accountId: 'acct_1',
      apiKeyId: null,
      family: 'ax',
      action: 'reference2video',
      model: 'm',
      channelId: 'c',
      upstreamTaskId: null,
      phase: 'submitting',
      nativeStatus: 'PENDING',
      outerStatus: 'SUBMITTED',
      progress: 0,
      failureCode: null,
      failureReason: null,
      requestSnapshot: {},
      creationEcho: null,
      result: null,
      lastNative: null,
      nativeUsage: null,
      externalTaskId: null,
      callbackUrl: null,
      callbackToken: null,
      billableUsage: { kind: 'x' },
      billingState: 'held',
      estimatedCharge: 0,
      finalCharge: null,
      priceVersion: 1,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
      syncDueAt: null,
      syncAttempts: 0,
      leaseOwner: null,
      leaseUntil: null,
      deadlineAt: now + 3_600_000,
    } satisfies Partial<TaskEntity>,
    overrides,
  );
}
