import { AuditChainHeadEntity } from '../../src/core/audit/audit-chain-head.entity';
import { AuditEntryEntity } from '../../src/core/audit/audit-entry.entity';
import { ChannelSettingEntity } from '../../src/core/channel-settings/channel-setting.entity';
import { hashOperatorToken } from '../../src/core/operators/operator-token';
import { OperatorEntity } from '../../src/core/operators/operator.entity';
import { FIXED_NOW, defineFactory } from './factory';

export const operatorFactory = defineFactory<OperatorEntity>(OperatorEntity, (n) => ({
  id: `op_${n}`,
  name: `Operator ${n}`,
  role: 'admin',
  disabled: false,
  tokenPrefix: `vgo_test${n}`,
  tokenHash: hashOperatorToken(`vgo_test-token-${n}`),
  createdAt: FIXED_NOW,
  updatedAt: FIXED_NOW,
}));

/** No override: the channel as the environment configures it. */
export const channelSettingFactory = defineFactory<ChannelSettingEntity>(ChannelSettingEntity, (n) => ({
  channelId: `ax-${n}`,
  enabled: null,
  priority: null,
  weight: null,
  updatedAt: FIXED_NOW,
}));

export const auditEntryFactory = defineFactory<AuditEntryEntity>(AuditEntryEntity, (n) => ({
  seq: n,
  id: `aud_${n}`,
  createdAt: FIXED_NOW,
  actorId: 'bootstrap',
  actorName: 'owner',
  actorRole: 'owner',
  action: 'account.update',
  targetType: 'account',
  targetId: 'acct_1',
  accountId: 'acct_1',
  before: null,
  after: null,
  requestId: null,
  ip: null,
  prevHash: '0'.repeat(64),
  hash: n.toString(16).padStart(64, '0'),
}));

export const auditChainHeadFactory = defineFactory<AuditChainHeadEntity>(AuditChainHeadEntity, () => ({
  id: 1,
  seq: 0,
  hash: '0'.repeat(64),
}));
