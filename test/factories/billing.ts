import { LedgerEntryEntity } from '../../src/core/billing/entities/ledger-entry.entity';
import { PriceVersionEntity } from '../../src/core/billing/entities/price-version.entity';
import { UsageRecordEntity } from '../../src/core/billing/entities/usage-record.entity';
import { FIXED_NOW, defineFactory } from './factory';

export const ledgerEntryFactory = defineFactory<LedgerEntryEntity>(LedgerEntryEntity, (n) => ({
  id: `led_${n}`,
  accountId: 'acct_1',
  kind: 'credit',
  amount: 1000,
  taskId: null,
  reason: null,
  priceVersion: null,
  createdAt: FIXED_NOW,
}));

export const usageRecordFactory = defineFactory<UsageRecordEntity>(UsageRecordEntity, (n) => ({
  id: `use_${n}`,
  taskId: `task_${n}`,
  accountId: 'acct_1',
  model: 'ax-model',
  action: 'r2v',
  amount: 80,
  priceVersion: 1,
  usage: { kind: 'ax-r2v', durationSeconds: 5 },
  createdAt: FIXED_NOW,
}));

export const priceVersionFactory = defineFactory<PriceVersionEntity>(PriceVersionEntity, (n) => ({
  version: n,
  table: {},
  createdAt: FIXED_NOW,
}));
