import { ResultFileEntity } from '../../src/core/result-keeping/result-file.entity';
import { resultFileId, videoSlot } from '../../src/core/result-keeping/result-slots';
import { FIXED_NOW, defineFactory } from './factory';

/** The first video of `task_<n>`, waiting to be kept. */
export const resultFileFactory = defineFactory<ResultFileEntity>(ResultFileEntity, (n) => ({
  id: resultFileId(`task_${n}`, videoSlot(0)),
  taskId: `task_${n}`,
  accountId: 'acct_1',
  slot: videoSlot(0),
  upstreamUrl: 'https://upstream.test/v.mp4',
  status: 'pending',
  attempts: 0,
  nextAttemptAt: FIXED_NOW,
  leaseOwner: null,
  leaseUntil: null,
  storageKey: null,
  sizeBytes: null,
  contentType: null,
  lastError: null,
  traceContext: null,
  storedAt: null,
  expiresAt: null,
  createdAt: FIXED_NOW,
  updatedAt: FIXED_NOW,
}));
