import { hashApiKey } from '../../src/core/accounts/api-key-secret';
import { AccountEntity } from '../../src/core/accounts/entities/account.entity';
import { ApiKeyEntity } from '../../src/core/accounts/entities/api-key.entity';
import { ModelGrantEntity } from '../../src/core/accounts/entities/model-grant.entity';
import { FIXED_NOW, defineFactory } from './factory';

export const accountFactory = defineFactory<AccountEntity>(AccountEntity, (n) => ({
  id: `acct_${n}`,
  name: `Account ${n}`,
  balance: 1000,
  held: 0,
  disabled: false,
  rateLimitRpm: null,
  maxConcurrentTasks: null,
  inFlightTasks: 0,
  webhookSecret: `whsec_${Buffer.from(`secret-${n}`.padEnd(24, '.')).toString('base64')}`,
  createdAt: FIXED_NOW,
  updatedAt: FIXED_NOW,
}));

export const keyFactory = defineFactory<ApiKeyEntity>(ApiKeyEntity, (n) => ({
  id: `key_${n}`,
  accountId: 'acct_1',
  name: null,
  prefix: `sk-test${n}`,
  keyHash: hashApiKey(`sk-test-secret-${n}`),
  models: null,
  createdAt: FIXED_NOW,
  lastUsedAt: null,
  expiresAt: null,
  revokedAt: null,
}));

export const grantFactory = defineFactory<ModelGrantEntity>(ModelGrantEntity, (n) => ({
  id: `grant_${n}`,
  accountId: 'acct_1',
  model: 'ax-model',
  capabilities: [],
  createdAt: FIXED_NOW,
}));
