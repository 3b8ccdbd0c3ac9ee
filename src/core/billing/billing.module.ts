import { Module } from '@nestjs/common';
import { LedgerModule } from './ledger.module';
import { PricingService } from './pricing.service';
import { UsageLog } from './usage-log.service';
import { UsageRepository } from './usage.repository';

@Module({
  imports: [LedgerModule],
  providers: [PricingService, UsageRepository, UsageLog],
  exports: [LedgerModule, PricingService, UsageLog],
})
export class BillingModule {}
