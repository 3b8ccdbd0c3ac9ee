import { LedgerEntryEntity } from '../../src/core/billing/entities/ledger-entry.entity';
import { PriceVersionEntity } from '../../src/core/billing/entities/price-version.entity';
import { UsageRecordEntity } from '../../src/core/billing/entities/usage-record.entity';
import type { AxBillableUsage } from '../../src/families/ax/ax.pricing';
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

/** An ax create's billable usage: 720P, 5 s, no references, no audio field; `over` changes any of it. */
export const axUsage = (over: Partial<AxBillableUsage> = {}): AxBillableUsage => ({
  kind: 'ax-r2v',
  resolution: '720P',
  durationSeconds: 5,
  referenceImages: 0,
  referenceVideos: 0,
  audio: null,
  ...over,
});
