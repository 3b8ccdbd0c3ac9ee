// Every entity of the gateway, for tools that run outside Nest (the TypeORM CLI). Inside the app,
// each module registers its own with `TypeOrmModule.forFeature`.
import { AccountEntity } from './core/accounts/entities/account.entity';
import { ApiKeyEntity } from './core/accounts/entities/api-key.entity';
import { ModelGrantEntity } from './core/accounts/entities/model-grant.entity';
import { LedgerEntryEntity } from './core/billing/entities/ledger-entry.entity';
import { PriceVersionEntity } from './core/billing/entities/price-version.entity';
import { UsageRecordEntity } from './core/billing/entities/usage-record.entity';
import { CallbackDeliveryEntity } from './core/tasks/entities/callback-delivery.entity';
import { IdempotencyRecordEntity } from './core/tasks/entities/idempotency-record.entity';
import { TaskEntity } from './core/tasks/entities/task.entity';
import { ResultFileEntity } from './core/result-keeping/result-file.entity';
import { ChannelSettingEntity } from './core/channel-settings/channel-setting.entity';
import { OperatorEntity } from './core/operators/operator.entity';
import { OperatorSessionEntity } from './core/operators/operator-session.entity';
import { AuditEntryEntity } from './core/audit/audit-entry.entity';
import { AuditChainHeadEntity } from './core/audit/audit-chain-head.entity';
import { FAMILY_ENTITIES } from './families/family-entities';

export const ALL_ENTITIES = [
  AccountEntity,
  ApiKeyEntity,
  ModelGrantEntity,
  TaskEntity,
  IdempotencyRecordEntity,
  CallbackDeliveryEntity,
  LedgerEntryEntity,
  UsageRecordEntity,
  PriceVersionEntity,
  ResultFileEntity,
  ChannelSettingEntity,
  OperatorEntity,
  OperatorSessionEntity,
  AuditEntryEntity,
  AuditChainHeadEntity,
  ...FAMILY_ENTITIES,
];
