import { CallbackDeliveryEntity } from '../../src/core/tasks/entities/callback-delivery.entity';
import { IdempotencyRecordEntity } from '../../src/core/tasks/entities/idempotency-record.entity';
import { TaskEntity } from '../../src/core/tasks/entities/task.entity';
import { FIXED_NOW, defineFactory } from './factory';

const DAY_MS = 24 * 3600 * 1000;

/** A task of family `ax` the upstream is working on: slot taken, estimate held. */
export const taskFactory = defineFactory<TaskEntity>(TaskEntity, (n) => ({
  id: `task_${n}`,
  accountId: 'acct_1',
  apiKeyId: 'key_1',
  family: 'ax',
  action: 'r2v',
  model: 'ax-model',
  channelId: 'ax-default',
  upstreamTaskId: `up-${n}`,
  phase: 'active',
  nativeStatus: 'RUNNING',
  outerStatus: 'IN_PROGRESS',
  progress: 10,
  failureCode: null,
  failureReason: null,
  requestSnapshot: { prompt: 'a cat' },
  creationEcho: null,
  result: null,
  lastNative: null,
  nativeUsage: null,
  externalTaskId: null,
  callbackUrl: null,
  callbackToken: null,
  billableUsage: { kind: 'ax-r2v', durationSeconds: 5 },
  billingState: 'held',
  estimatedCharge: 100,
  finalCharge: null,
  priceVersion: 1,
  createdAt: FIXED_NOW,
  updatedAt: FIXED_NOW,
  finishedAt: null,
  syncDueAt: FIXED_NOW,
  syncAttempts: 0,
  leaseOwner: null,
  leaseUntil: null,
  deadlineAt: FIXED_NOW + DAY_MS,
  deletedAt: null,
  traceContext: null,
}));

/** The finished state of `taskFactory`'s task: one video, charged. */
export function succeededTask(overrides: Partial<TaskEntity> = {}): TaskEntity {
  return taskFactory.build({
    phase: 'succeeded',
    nativeStatus: 'SUCCEEDED',
    outerStatus: 'SUCCESS',
    progress: 100,
    result: { videos: [{ url: 'https://upstream.test/v.mp4', coverUrl: 'https://upstream.test/c.png' }], voices: [] },
    billingState: 'settled',
    finalCharge: 80,
    finishedAt: FIXED_NOW,
    syncDueAt: null,
    ...overrides,
  });
}

/**
 * A task as the engine writes it at creation (submitting, estimate held, no upstream ID yet), made
 * now by the wall clock unless `createdAt` is given: for specs and e2e files that store rows beside
 * a running gateway.
 */
export function taskRecord(overrides: Partial<TaskEntity> = {}): TaskEntity {
  const now = overrides.createdAt ?? Date.now();
  return taskFactory.build({
    id: 'task_1',
    apiKeyId: null,
    action: 'reference2video',
    model: 'm',
    channelId: 'c',
    upstreamTaskId: null,
    phase: 'submitting',
    nativeStatus: 'PENDING',
    outerStatus: 'SUBMITTED',
    progress: 0,
    requestSnapshot: {},
    billableUsage: { kind: 'x' },
    estimatedCharge: 0,
    createdAt: now,
    updatedAt: now,
    syncDueAt: null,
    deadlineAt: now + 3_600_000,
    ...overrides,
  });
}

export const idempotencyRecordFactory = defineFactory<IdempotencyRecordEntity>(IdempotencyRecordEntity, (n) => ({
  accountId: 'acct_1',
  key: `key-${n}`,
  requestHash: 'c1:hash',
  state: 'in_flight',
  taskId: `task_${n}`,
  responseStatus: null,
  responseBody: null,
  responseHeaders: null,
  createdAt: FIXED_NOW,
  expiresAt: FIXED_NOW + DAY_MS,
}));

export const callbackDeliveryFactory = defineFactory<CallbackDeliveryEntity>(CallbackDeliveryEntity, (n) => ({
  id: `msg_${n}`,
  taskId: `task_${n}`,
  accountId: 'acct_1',
  url: 'https://client.example.com/hook',
  body: JSON.stringify({ id: `task_${n}` }),
  status: 'pending',
  attempts: 0,
  nextAttemptAt: FIXED_NOW,
  lastError: null,
  createdAt: FIXED_NOW,
  updatedAt: FIXED_NOW,
  traceContext: null,
}));
